#!/usr/bin/env bash
# Writes the seeds of Fuzz/corpus/upload-reader (run once from the repository root; the seeds are committed).
set -euo pipefail
d=Fuzz/corpus/upload-reader
mkdir -p "$d"
printf 'image/jpeg\n\xff\xd8\xff\xe0' > "$d/raw-jpeg"
printf ';\nabc' > "$d/semicolon"
printf ' ; \n' > "$d/semicolon-spaces"
printf 'Image/PNG; name="a;b\\"c"\n\x89PNG' > "$d/quoted-parameter"
printf 'application/x-www-form-urlencoded\nx=1' > "$d/form-urlencoded"
printf 'text/plain; charset=utf-8\nhello' > "$d/text"
printf 'multipart/form-data; boundary=AaB03x\n--AaB03x\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--AaB03x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--AaB03x--\r\n' > "$d/multipart-two-parts"
printf 'multipart/form-data; boundary="with space:()"\npreamble\r\n--with space:()\r\nContent-Disposition: form-data; name=image; filename*=UTF-8'"''"'%%C3%%A9.png\r\n\r\nx\r\n--with space:()--' > "$d/multipart-quoted-boundary"
printf 'multipart/form-data; boundary=b\n--b\r\nContent-Disposition: form-data; name="image\r\n\r\nx\r\n--b--' > "$d/multipart-bad-disposition"
printf 'multipart/form-data; boundary=b\n--b\r\nbad header\r\n\r\nx\r\n--b--' > "$d/multipart-bad-header"
printf 'multipart/form-data\n--b' > "$d/multipart-no-boundary"
