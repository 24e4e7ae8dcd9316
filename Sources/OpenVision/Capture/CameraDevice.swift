internal import CNative

/// A V4L2 camera and the modes it offers.
public struct CameraDevice: Sendable, Hashable {
    /// A pixel format, size and frame rate the camera supports.
    public struct Mode: Sendable, Hashable {
        /// The V4L2 pixel format's four-character code, e.g. "MJPG" or "YUYV".
        public var fourcc: String
        /// Frame width in pixels.
        public var width: Int
        /// Frame height in pixels.
        public var height: Int
        /// 0 when the driver does not enumerate frame intervals.
        public var fps: Double
    }

    /// The device node, e.g. `/dev/video0`.
    public var path: String
    /// The camera's name as the driver reports it (V4L2 `card`).
    public var name: String
    /// The driver's name (V4L2 `driver`, e.g. "uvcvideo").
    public var driver: String
    /// Where the device is attached (V4L2 `bus_info`, e.g. "usb-0000:00:14.0-1").
    public var bus: String

    /// Video-capture devices (/dev/video*), in numeric order; empty when there are none.
    public static func list() throws(VisionError) -> [CameraDevice] {
        var count: Int32 = 0
        try NativeError.check(ov_camera_list(nil, 0, &count), "listing cameras")
        guard count > 0 else { return [] }
        var devices = [ov_camera_device](repeating: ov_camera_device(), count: Int(count))
        try NativeError.check(ov_camera_list(&devices, count, &count), "listing cameras")
        return devices.prefix(Int(count)).map {
            CameraDevice(
                path: stringFromCCharArray($0.path), name: stringFromCCharArray($0.name),
                driver: stringFromCCharArray($0.driver), bus: stringFromCCharArray($0.bus))
        }
    }

    /// The modes this camera supports.
    public func modes() throws(VisionError) -> [Mode] {
        var count: Int32 = 0
        try NativeError.check(ov_camera_modes(path, nil, 0, &count), "camera modes")
        guard count > 0 else { return [] }
        var modes = [ov_camera_mode](repeating: ov_camera_mode(), count: Int(count))
        try NativeError.check(ov_camera_modes(path, &modes, count, &count), "camera modes")
        return modes.prefix(Int(count)).map {
            Mode(fourcc: stringFromCCharArray($0.fourcc), width: Int($0.width), height: Int($0.height), fps: $0.fps)
        }
    }
}
