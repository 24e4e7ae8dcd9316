import Foundation

/// One hand's pose, as Vision's `HumanHandPoseObservation`: Vision's 21 hand joints (normalised, lower-left
/// origin, relative to the request's region of interest) from MediaPipe's hand landmark model, and which
/// hand it is.
///
/// The model gives no per-joint confidence: every joint's confidence is the hand presence score, which is
/// also the observation's `confidence`.
public struct HumanHandPoseObservation: RecognizedPointsObservation {
    /// Vision's hand joint names (`HumanHandPoseObservation.JointName`), in the model's landmark order
    /// (`landmarkIndex`). CMC, MP, IP: the thumb's carpometacarpal, metacarpophalangeal and interphalangeal
    /// joints; MCP, PIP, DIP: a finger's metacarpophalangeal, proximal and distal interphalangeal joints.
    public enum JointName: String, CaseIterable, Sendable, Codable, Hashable {
        /// The wrist.
        case wrist
        /// Thumb: carpometacarpal, metacarpophalangeal, interphalangeal joints and tip.
        case thumbCMC, thumbMP, thumbIP, thumbTip
        /// Index finger: MCP, PIP, DIP joints and tip.
        case indexMCP, indexPIP, indexDIP, indexTip
        /// Middle finger: MCP, PIP, DIP joints and tip.
        case middleMCP, middlePIP, middleDIP, middleTip
        /// Ring finger: MCP, PIP, DIP joints and tip.
        case ringMCP, ringPIP, ringDIP, ringTip
        /// Little finger: MCP, PIP, DIP joints and tip.
        case littleMCP, littlePIP, littleDIP, littleTip

        /// The joint's index among MediaPipe's 21 hand landmarks.
        public var landmarkIndex: Int { Self.allCases.firstIndex(of: self)! }
    }

    /// Vision's joint groups (`HumanHandPoseObservation.JointsGroupName`): each finger from its base to its tip
    /// (the wrist belongs to `all` only).
    public enum JointsGroupName: String, CaseIterable, Sendable, Codable, Hashable {
        /// One group per finger; `all` is every joint, wrist included.
        case thumb, indexFinger, middleFinger, ringFinger, littleFinger, all

        /// The joints in the group, base to tip.
        public var jointNames: [JointName] {
            switch self {
            case .thumb: [.thumbCMC, .thumbMP, .thumbIP, .thumbTip]
            case .indexFinger: [.indexMCP, .indexPIP, .indexDIP, .indexTip]
            case .middleFinger: [.middleMCP, .middlePIP, .middleDIP, .middleTip]
            case .ringFinger: [.ringMCP, .ringPIP, .ringDIP, .ringTip]
            case .littleFinger: [.littleMCP, .littlePIP, .littleDIP, .littleTip]
            case .all: JointName.allCases
            }
        }
    }

    /// Which hand, as Vision's `VNChirality`: the person's own left or right hand.
    public enum Chirality: String, Sendable, Codable, Hashable {
        /// The person's left or right hand; `unknown` when it cannot be told.
        case left, right, unknown
    }

    /// The bones drawn as a hand skeleton: wrist to each finger's base, then along each finger.
    public static let skeletonPairs: [(JointName, JointName)] = {
        var pairs: [(JointName, JointName)] = []
        for group in [JointsGroupName.thumb, .indexFinger, .middleFinger, .ringFinger, .littleFinger] {
            let joints = group.jointNames
            pairs.append((.wrist, joints[0]))
            for i in 1..<joints.count { pairs.append((joints[i - 1], joints[i])) }
        }
        return pairs
    }()

    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// MediaPipe's hand presence score, 0...1.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The person's own hand. MediaPipe's handedness output assumes a mirrored (selfie) image; for the
    /// unmirrored images handlers analyse it is swapped here, as MediaPipe's documentation says to. `.unknown`
    /// when the model is unsure (probability within 0.5 ± `chiralityMargin` of the request).
    public var chirality: Chirality
    /// The model's probability for `chirality` (0.5...1).
    public var chiralityConfidence: Float
    /// The 21 joints in `JointName` order.
    public var joints: [RecognizedPoint]
    /// The joints' depth relative to the wrist, in roughly the scale of x (MediaPipe's `z`; smaller is nearer
    /// the camera), in `JointName` order.
    public var depths: [Double]

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        joints: [RecognizedPoint], depths: [Double], confidence: Float, chirality: Chirality,
        chiralityConfidence: Float,
        uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.joints = joints
        self.depths = depths
        self.confidence = confidence
        self.chirality = chirality
        self.chiralityConfidence = chiralityConfidence
    }

    /// A hand read on a body pose: its side is the pose's (`chirality`); `chiralityConfidence` is the hand model's
    /// probability for that side.
    init(bodyHand hand: HandPosePipeline.Hand, chirality: Chirality) {
        let joints = zip(JointName.allCases, hand.landmarks).map { name, p in
            RecognizedPoint(
                identifier: name.rawValue, location: NormalizedPoint(x: p.x, y: 1 - p.y), confidence: hand.presence)
        }
        // MediaPipe's "Left" is a left hand in a mirrored image: the person's right hand in an unmirrored one.
        let right = hand.leftProbability
        self.init(
            joints: joints, depths: hand.landmarks.map(\.z), confidence: hand.presence, chirality: chirality,
            chiralityConfidence: chirality == .right ? right : 1 - right)
    }

    /// Vision's joint names, in the model's order.
    public var availableJointNames: [JointName] { JointName.allCases }

    /// Vision's joint groups.
    public var availableJointsGroupNames: [JointsGroupName] { JointsGroupName.allCases }

    /// The joint named `name`.
    public func recognizedPoint(_ name: JointName) -> RecognizedPoint { joints[name.landmarkIndex] }

    /// The joints of `group`, keyed by name (as Vision's `recognizedPoints(_:)`).
    public func recognizedPoints(_ group: JointsGroupName) -> [JointName: RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: group.jointNames.map { ($0, recognizedPoint($0)) })
    }

    /// Every joint by its name (`JointName.rawValue`).
    public var allRecognizedPoints: [String: RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: joints.map { ($0.identifier, $0) })
    }

    /// The raw values of every joint name, as the keys of `allRecognizedPoints`.
    public var availableKeys: [String] { JointName.allCases.map(\.rawValue) }

    /// The smallest box holding every joint (normalised, lower-left origin).
    public var boundingBox: NormalizedRect {
        let xs = joints.map(\.location.x)
        let ys = joints.map(\.location.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else {
            return NormalizedRect(x: 0, y: 0, width: 0, height: 0)
        }
        return NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
