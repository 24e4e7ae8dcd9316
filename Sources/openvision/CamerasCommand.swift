import ArgumentParser
import Foundation
import OpenVision

/// `openvision cameras`: V4L2 devices and their modes.
struct CamerasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras", abstract: "List V4L2 cameras and their modes.")

    func run() async throws {
        let cameras = try CameraDevice.list()
        if cameras.isEmpty { print("no V4L2 capture devices (/dev/video*)") }
        for camera in cameras {
            print("\(camera.path)  \(camera.name)  (\(camera.driver), \(camera.bus))")
            for mode in try camera.modes() {
                print(
                    String(
                        format: "    %@ %dx%d %@", mode.fourcc, mode.width, mode.height,
                        mode.fps > 0 ? String(format: "%.1f fps", mode.fps) : ""))
            }
        }
    }
}
