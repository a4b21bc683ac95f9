import CoreMetrics
import Prometheus

/// The swift-metrics factory over TIL's Prometheus registry that gives every family a
/// `# HELP` line. swift-prometheus's own `PrometheusMetricsFactory` registers each family with
/// empty help, and the registry refuses a second, different help text for a name already
/// registered, so the metrics made through swift-metrics (request counts and latencies in
/// Web, logins here) are registered by this factory with the help their definitions declare.
struct DescribedMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    /// Help text by family name; a family without one gets no `# HELP` (MetricsTests fails).
    let help: [String: String]
    let durationBuckets: [Duration]
    private static let valueBuckets: [Double] = [0.001, 0.01, 0.1, 1, 10, 100, 1000, 10_000]

    /// The family `label` names, with its help (the unit is part of TIL's labels already).
    private func family(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: help[label] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: family(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: family(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: family(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: family(label), labels: dimensions, buckets: Self.valueBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: family(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: family(label), labels: dimensions, buckets: durationBuckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        switch handler {
        case let gauge as Prometheus.Gauge: registry.unregisterGauge(gauge)
        case let histogram as ValueHistogram: registry.unregisterValueHistogram(histogram)
        default: break
        }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
