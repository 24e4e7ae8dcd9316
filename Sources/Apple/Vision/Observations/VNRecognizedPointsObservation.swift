import CoreML
import Foundation
import OpenVision

/// Named points found in an image (body or hand joints), as Vision's `VNRecognizedPointsObservation`: by key,
/// by group, and as Core ML's keypoints array.
open class VNRecognizedPointsObservation: VNObservation {
    let points: [RecognizedPoint]
    let groups: [(key: VNRecognizedPointGroupKey, members: [VNRecognizedPointKey])]

    /// The keys of `keypointsMultiArray()`'s points, in order.
    let keypointKeys: [VNRecognizedPointKey]

    init(
        uuid: UUID, confidence: VNConfidence, points: [RecognizedPoint],
        groups: [(VNRecognizedPointGroupKey, [VNRecognizedPointKey])],
        keypointKeys: [VNRecognizedPointKey]? = nil
    ) {
        self.points = points
        self.groups = groups.map { (key: $0.0, members: $0.1) }
        self.keypointKeys = keypointKeys ?? points.map { VNRecognizedPointKey(rawValue: $0.identifier) }
        super.init(uuid: uuid, confidence: confidence)
    }

    /// Every point's key.
    public var availableKeys: [VNRecognizedPointKey] { points.map { VNRecognizedPointKey(rawValue: $0.identifier) } }
    /// Every group's key.
    public var availableGroupKeys: [VNRecognizedPointGroupKey] { groups.map(\.key) }

    /// The point named `pointKey`; `VNError.invalidArgument` for a key this observation has not.
    public func recognizedPoint(forKey pointKey: VNRecognizedPointKey) throws -> VNRecognizedPoint {
        guard let point = points.first(where: { $0.identifier == pointKey.rawValue }) else {
            throw VNError(
                VisionError(
                    .invalidArgument,
                    "no point '\(pointKey)'; available: \(availableKeys.map(\.rawValue).joined(separator: ", "))"))
        }
        return VNRecognizedPoint(point)
    }

    /// The points of the group `groupKey` by key (`VNError.invalidArgument` for an unknown group).
    public func recognizedPoints(forGroupKey groupKey: VNRecognizedPointGroupKey) throws -> [VNRecognizedPointKey:
        VNRecognizedPoint]
    {
        if groupKey == .all {
            var all: [VNRecognizedPointKey: VNRecognizedPoint] = [:]
            for point in points { all[VNRecognizedPointKey(rawValue: point.identifier)] = VNRecognizedPoint(point) }
            return all
        }
        guard let group = groups.first(where: { $0.key == groupKey }) else {
            throw VNError(
                VisionError(
                    .invalidArgument,
                    "no group '\(groupKey)'; available: \(availableGroupKeys.map(\.rawValue).joined(separator: ", "))"))
        }
        var result: [VNRecognizedPointKey: VNRecognizedPoint] = [:]
        for key in group.members { result[key] = try recognizedPoint(forKey: key) }
        return result
    }

    /// The points as Core ML's keypoints array, shape [1, 3, N]: x, y (normalised, lower-left origin) and
    /// confidence of each point (Vision's input for Create ML action classifiers: body poses give 18 points in
    /// OpenPose's COCO order — nose, neck, right shoulder, elbow, wrist, left shoulder, elbow, wrist, right hip,
    /// knee, ankle, left hip, knee, ankle, right eye, left eye, right ear, left ear; hands their 21 joints, wrist
    /// first).
    public func keypointsMultiArray() throws -> MLMultiArray {
        let n = keypointKeys.count
        var values = [Float](repeating: 0, count: 3 * n)
        for (i, key) in keypointKeys.enumerated() {
            guard let p = points.first(where: { $0.identifier == key.rawValue }) else { continue }
            values[i] = Float(p.location.x)
            values[n + i] = Float(p.location.y)
            values[2 * n + i] = p.confidence
        }
        return MLMultiArray(shape: [1, 3, n], values: values)
    }
}
