"""Writes a hard barcode corpus in zxing-cpp's blackbox layout: `NAME.png|jpg` + `NAME.txt` (expected
text) or `NAME.bin` (expected bytes), one folder per symbology.

The corpus stands in for zxing-cpp's own test/samples where they are not at hand: every symbology
that zxing-cpp 3.1.1 (PyPI) can create, with payloads of several kinds (text, digits, binary), at
module sizes down to 1 px, rotated, mirrored, inverted, blurred, noisy, low-contrast, perspective-
warped and JPEG-compressed. Deterministic (seeded). Usage: make_barcode_corpus.py OUT_DIR
"""
import os
import sys

import cv2
import numpy as np
import zxingcpp

F = zxingcpp.BarcodeFormat
PAYLOADS = {
    "QRCode": ["https://example.org/a?b=1", "HELLO 123", bytes([0x80, 0x81, 0x01, 0x41, 0xFF])],
    "MicroQRCode": ["12345", "MQR1"],
    "RMQRCode": ["RMQR 2026"],
    "DataMatrix": ["Data Matrix Code", "0123456789", bytes([0x00, 0x10, 0xC3, 0xA9, 0x7F])],
    "Aztec": ["Aztec Code 2026", bytes([0xDE, 0xAD, 0xBE, 0xEF, 0x41])],
    "PDF417": ["PDF417 sample text 42"],
    "Code128": ["CODE128-abc", "12345678"],
    "Code39": ["CODE39 TEST"],
    "Code93": ["CODE93"],
    "Codabar": ["A123456B"],
    "EAN13": ["5901234123457"],
    "EAN8": ["96385074"],
    "UPCA": ["036000291452"],
    "UPCE": ["01234565"],
    "ITF": ["12345678"],
    "Telepen": ["TELEPEN-1", "abc123"],
    "PZN": ["1234562"],
    "DataBar": ["0950110153001"],
    "DataBarExp": ["(01)98898765432106(3202)012345(15)991231"],
    "DataBarLtd": ["0950110153001"],
}


def render(fmt: str, payload, scale: int) -> np.ndarray | None:
    try:
        barcode = zxingcpp.create_barcode(payload, getattr(F, fmt))
    except Exception:
        return None
    image = np.array(zxingcpp.write_barcode_to_image(barcode, scale=scale, add_quiet_zones=True))
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)


def expected_text(fmt: str, payload):
    """What zxing-cpp reads from the clean code (EAN/UPC add a check digit, DataBar and PZN format
    their text): the expected text of every variant. Binary payloads stay bytes."""
    if isinstance(payload, bytes):
        return payload
    image = render(fmt, payload, 4)
    results = zxingcpp.read_barcodes(pad(image, 40), text_mode=zxingcpp.TextMode.Plain) if image is not None else []
    return results[0].text if results else payload


def pad(image: np.ndarray, margin: int, value: int = 255) -> np.ndarray:
    return cv2.copyMakeBorder(image, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=value)


def variants(image: np.ndarray, rng: np.random.Generator):
    h, w = image.shape
    yield "plain", image, ".png"
    yield "inverted", 255 - image, ".png"
    yield "mirrored", image[:, ::-1].copy(), ".png"
    big = pad(image, max(h, w) // 3)
    bh, bw = big.shape
    for angle in (7, 33, 90, 161):
        m = cv2.getRotationMatrix2D((bw / 2, bh / 2), angle, 1.0)
        yield f"rot{angle}", cv2.warpAffine(big, m, (bw, bh), borderValue=255, flags=cv2.INTER_LINEAR), ".png"
    yield "blur", cv2.GaussianBlur(big, (0, 0), 1.2), ".png"
    noisy = np.clip(big.astype(np.float32) + rng.normal(0, 28, big.shape), 0, 255).astype(np.uint8)
    yield "noise", noisy, ".png"
    yield "lowcontrast", (big.astype(np.float32) * 0.25 + 150).astype(np.uint8), ".png"
    src = np.float32([[0, 0], [bw, 0], [bw, bh], [0, bh]])
    d = 0.12
    dst = np.float32([[bw * d, bh * d * 0.5], [bw * (1 - d * 0.3), 0], [bw, bh], [0, bh * (1 - d)]])
    yield "perspective", cv2.warpPerspective(big, cv2.getPerspectiveTransform(src, dst), (bw, bh),
                                             borderValue=255), ".png"
    yield "jpeg", big, ".jpg"
    gradient = np.tile(np.linspace(0.55, 1.0, bw, dtype=np.float32), (bh, 1))
    yield "shadow", (big.astype(np.float32) * gradient).astype(np.uint8), ".png"


def main() -> None:
    out = sys.argv[1]
    rng = np.random.default_rng(2026)
    total = 0
    for fmt, payloads in PAYLOADS.items():
        folder = os.path.join(out, fmt)
        os.makedirs(folder, exist_ok=True)
        for p_index, payload in enumerate(payloads):
            expected = expected_text(fmt, payload)
            for scale in (1, 3):
                image = render(fmt, payload, scale)
                if image is None:
                    continue
                for name, variant, ext in variants(image, rng):
                    stem = os.path.join(folder, f"{p_index}-s{scale}-{name}")
                    params = [cv2.IMWRITE_JPEG_QUALITY, 35] if ext == ".jpg" else []
                    cv2.imwrite(stem + ext, variant, params)
                    if isinstance(expected, bytes):
                        open(stem + ".bin", "wb").write(expected)
                    else:
                        open(stem + ".txt", "w", encoding="utf-8").write(expected)
                    total += 1
    print(f"{total} images in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
