import Vision

// `Vision` alone; the same body as ImportsAllModules.
let request = VNDetectBarcodesRequest()
print(request.symbologies.count, CMTimeMake(value: 1, timescale: 30).seconds)
