import OpenVision

/// Vision's abstract image-registration request: the common superclass of `VNTranslationalImageRegistrationRequest`
/// and `VNHomographicImageRegistrationRequest`, so code can hold either (`let request: VNImageRegistrationRequest`).
/// It takes its target as every `VNTargetedImageRequest` does; perform one of the two subclasses.
open class VNImageRegistrationRequest: VNTargetedImageRequest {}
