import Foundation

// Foundation's NSLog with objects as `%@` arguments, as on Apple platforms, where every NSObject is a CVarArg and
// `%@` prints the object's `description`: `NSLog("Failed: %@", error)` with an `NSError` (Apple's face-tracking
// sample does it in each of its catch blocks). swift-corelibs-foundation's NSError is no CVarArg, and its formatter
// takes only its own NSString for `%@` (a CVarArg conformance added to NSError crashes it), so this overload turns
// each argument that is not a CVarArg into the NSString Apple's `%@` would print, then logs through Foundation's
// NSLogv. Calls whose arguments are all CVarArgs still go to Foundation's own NSLog (the more specific overload).
// It lives in Core Graphics, the lowest Apple module, which brings Foundation: `import Vision`, `import CoreML`,
// `import AVFoundation`, … all reach it.

/// Logs `format` with `args` to the standard error, as Foundation's `NSLog` (date, process name and id, then the
/// message), where an argument may also be an object for `%@`: an `NSError` prints as Apple's does
/// (`Error Domain=… Code=… "…" UserInfo={…}`), any other object its `description`.
public func NSLog(_ format: String, _ args: Any...) {
    withVaList(nsLogArguments(args)) { NSLogv(format, $0) }
}

/// The arguments of `NSLog(_:_:)` as Foundation's formatter takes them: CVarArgs unchanged, an `NSError` as the
/// text of Apple's `-[NSError description]`, another object (or value) as its description, each as an `NSString`.
package func nsLogArguments(_ args: [Any]) -> [CVarArg] {
    args.map { argument -> CVarArg in
        if let value = argument as? CVarArg { return value }
        if let error = argument as? NSError { return NSString(string: appleDescription(of: error)) }
        return NSString(string: String(describing: argument))
    }
}

/// Apple's `-[NSError description]`: `Error Domain=<domain> Code=<code> "<NSLocalizedDescriptionKey's value, or
/// (null)>" UserInfo={<key>=<value>, …}` (the user info omitted when empty; its keys sorted here, where Apple's
/// order is the dictionary's).
private func appleDescription(of error: NSError) -> String {
    let described = error.userInfo[NSLocalizedDescriptionKey].map { "\($0)" } ?? "(null)"
    var text = "Error Domain=\(error.domain) Code=\(error.code) \"\(described)\""
    if !error.userInfo.isEmpty {
        let entries = error.userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        text += " UserInfo={\(entries.joined(separator: ", "))}"
    }
    return text
}
