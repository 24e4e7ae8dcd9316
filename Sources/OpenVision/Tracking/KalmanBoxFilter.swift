/// ByteTrack's constant-velocity Kalman filter on a box's (cx, cy, aspect = w / h, h) and their velocities
/// (the SORT / DeepSORT `KalmanFilter` the ByteTrack reference uses, with its noise weights: position 1/20
/// and velocity 1/160 of the height; aspect 1e-2 / 1e-5, measurement 1e-1).
///
/// The reference's 8 × 8 covariance starts diagonal and its motion and measurement matrices never mix the
/// four coordinates, so it stays block-diagonal: each coordinate with its own velocity. This filter keeps
/// those four 2 × 2 blocks, which gives the same numbers as the full matrices with a fraction of the work.
package struct KalmanBoxFilter: Sendable {
    static let positionWeight = 1.0 / 20, velocityWeight = 1.0 / 160

    /// cx, cy, a, h, then their velocities per frame.
    package private(set) var mean: [Double]
    /// Per coordinate k: variance of the value, covariance of value and velocity, variance of the velocity.
    package private(set) var p00: [Double], p01: [Double], p11: [Double]

    /// A new filter at the measured (cx, cy, a, h) with zero velocity (`KalmanFilter.initiate`).
    package init(measurement z: [Double]) {
        let h = z[3]
        let wp = Self.positionWeight
        let wv = Self.velocityWeight
        mean = z + [0, 0, 0, 0]
        let position = [2 * wp * h, 2 * wp * h, 1e-2, 2 * wp * h]
        let velocity = [10 * wv * h, 10 * wv * h, 1e-5, 10 * wv * h]
        p00 = position.map { $0 * $0 }
        p01 = [0, 0, 0, 0]
        p11 = velocity.map { $0 * $0 }
    }

    /// One frame ahead (`KalmanFilter.predict`); `freezeHeight` zeroes the height velocity first, as ByteTrack
    /// does for a track that is not currently tracked.
    package mutating func predict(freezeHeight: Bool = false) {
        if freezeHeight { mean[7] = 0 }
        let h = mean[3]
        let wp = Self.positionWeight
        let wv = Self.velocityWeight
        let position = [wp * h, wp * h, 1e-2, wp * h]
        let velocity = [wv * h, wv * h, 1e-5, wv * h]
        for k in 0..<4 {
            mean[k] += mean[k + 4]
            p00[k] = p00[k] + 2 * p01[k] + p11[k] + position[k] * position[k]
            p01[k] = p01[k] + p11[k]
            p11[k] = p11[k] + velocity[k] * velocity[k]
        }
    }

    /// Corrects with a measured (cx, cy, a, h) (`KalmanFilter.update`).
    package mutating func update(measurement z: [Double]) {
        let h = mean[3]
        let wp = Self.positionWeight
        let noise = [wp * h, wp * h, 1e-1, wp * h]
        for k in 0..<4 {
            let s = p00[k] + noise[k] * noise[k]
            let gain0 = p00[k] / s
            let gain1 = p01[k] / s
            let innovation = z[k] - mean[k]
            mean[k] += gain0 * innovation
            mean[k + 4] += gain1 * innovation
            let (a, b, c) = (p00[k], p01[k], p11[k])
            p00[k] = a - a * a / s
            p01[k] = b - a * b / s
            p11[k] = c - b * b / s
        }
    }

    /// Moves the state with the camera (BoT-SORT's camera-motion compensation, its `multi_gmc`, for any point
    /// map): the centre goes where `map` sends it, the velocity is the map's change of centre + velocity, the
    /// width and height are those of the mapped box's bounding box, and each coordinate's variances scale with the
    /// square of its change of scale. Returns false (the state unchanged) when a point does not map to a
    /// finite point or the mapped box is empty.
    package mutating func warp(_ map: (Double, Double) -> (Double, Double)?) -> Bool {
        let (cx, cy, h) = (mean[0], mean[1], mean[3])
        let w = mean[2] * h
        let corners = [
            (cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx - w / 2, cy + h / 2), (cx + w / 2, cy + h / 2),
        ]
        var mapped: [(Double, Double)] = []
        for p in corners + [(cx, cy), (cx + mean[4], cy + mean[5])] {
            guard let q = map(p.0, p.1), q.0.isFinite, q.1.isFinite else { return false }
            mapped.append(q)
        }
        let xs = mapped[0..<4].map(\.0)
        let ys = mapped[0..<4].map(\.1)
        let width = xs.max()! - xs.min()!
        let height = ys.max()! - ys.min()!
        guard width > 0, height > 0, w > 0, h > 0 else { return false }
        let scale = [width / w, height / h, 1, height / h]
        mean[0] = mapped[4].0
        mean[1] = mapped[4].1
        mean[2] = width / height
        mean[3] = height
        mean[4] = mapped[5].0 - mapped[4].0
        mean[5] = mapped[5].1 - mapped[4].1
        mean[7] *= scale[3]
        for k in 0..<4 {
            let s2 = scale[k] * scale[k]
            p00[k] *= s2
            p01[k] *= s2
            p11[k] *= s2
        }
        return true
    }

    /// The state's box as (x, y, width, height).
    package var box: (x: Double, y: Double, width: Double, height: Double) {
        let w = mean[2] * mean[3]
        let h = mean[3]
        return (mean[0] - w / 2, mean[1] - h / 2, w, h)
    }

    /// (cx, cy, w / h, h) of a box given by its corner and size.
    package static func measurement(x: Double, y: Double, width: Double, height: Double) -> [Double] {
        [x + width / 2, y + height / 2, width / height, height]
    }
}
