/// Core ML's `MLUpdateContext`: what a progress or completion handler of an `MLUpdateTask` is given.
open class MLUpdateContext {
    /// The task being run.
    public let task: MLUpdateTask
    /// The model as updated so far (the updated model at completion; the model as it was when the task failed or
    /// was cancelled). `write(to:)` saves it.
    public let model: MLModel
    /// The event being reported (empty at completion).
    public let event: MLUpdateProgressEvent
    /// The metrics of the event: `.lossValue`, `.epochIndex`, `.miniBatchIndex` as they apply.
    public let metrics: [MLMetricKey: Any]

    init(task: MLUpdateTask, model: MLModel, event: MLUpdateProgressEvent, metrics: [MLMetricKey: Any]) {
        self.task = task
        self.model = model
        self.event = event
        self.metrics = metrics
    }
}
