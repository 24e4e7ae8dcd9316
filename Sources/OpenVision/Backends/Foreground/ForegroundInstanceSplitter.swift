import Foundation

/// Turns a foreground mask into instances: its connected blobs (8-connected pixels of probability ≥ 0.5), each one
/// instance unless the objects found in it tell it apart. Objects are seeds: people as their instance masks, other
/// objects as their detector boxes, boxes of one class that overlap merged (touching objects of one kind stay one).
/// A seed belongs to the blob holding most of it, when that is at least `seedCoverage` of it. A blob with two seeds or
/// more is split pixel by pixel: a person's mask pixels are theirs; others go to the smallest object box holding
/// them, else to the nearest seed (by distance to its box). Blobs under `minimumAreaFraction` of the image are
/// dropped as specks. Instances are numbered 1…n by size, largest first (at most 255).
struct ForegroundInstanceSplitter {
    /// A seed: an object found in the image.
    struct Seed {
        /// Pixel box, top-left origin, half-open.
        var x0: Int, y0: Int, x1: Int, y1: Int
        /// A person's instance number in `personLabels`, or nil for a box seed.
        var person: Int?
        var area: Int { max(x1 - x0, 0) * max(y1 - y0, 0) }

        func contains(_ x: Int, _ y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }

        /// Squared distance from a pixel to the box (0 inside).
        func distance2(_ x: Int, _ y: Int) -> Int {
            let dx = x < x0 ? x0 - x : (x >= x1 ? x - x1 + 1 : 0)
            let dy = y < y0 ? y0 - y : (y >= y1 ? y - y1 + 1 : 0)
            return dx * dx + dy * dy
        }
    }

    /// Blobs smaller than this fraction of the image are specks.
    static let minimumAreaFraction = 0.001
    /// The share of a seed a blob must hold for the seed to be in it.
    static let seedCoverage = 0.15

    /// Detections scoring below this are not seeds (above the detector's 0.25: a false box would split a blob).
    static let seedConfidence: Float = 0.35
    /// The detector's label of people, whose seeds are their instance masks when a blob needs them.
    static let personLabel = "person"

    let width: Int
    let height: Int
    /// Blob number per pixel (0: background), 1…`blobCount`.
    private(set) var blobs: [Int32]
    private(set) var blobCount: Int

    /// The blobs of `mask` (`width` × `height`, 0…255): pixels ≥ 128, 8-connected, specks dropped.
    init(mask: [UInt8], width: Int, height: Int) {
        self.width = width
        self.height = height
        var blobs = [Int32](repeating: 0, count: width * height)
        var areas: [Int] = [0]
        var stack: [Int32] = []
        let minimum = max(Int(Double(width * height) * Self.minimumAreaFraction), 1)
        var kept: [Int32] = [0]
        var keptCount: Int32 = 0
        for start in mask.indices where mask[start] >= 128 && blobs[start] == 0 {
            let label = Int32(areas.count)
            var area = 0
            blobs[start] = label
            stack.append(Int32(start))
            while let top = stack.popLast() {
                let i = Int(top)
                area += 1
                let (x, y) = (i % width, i / width)
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let j = ny * width + nx
                        if mask[j] >= 128 && blobs[j] == 0 {
                            blobs[j] = label
                            stack.append(Int32(j))
                        }
                    }
                }
            }
            areas.append(area)
            if area >= minimum { keptCount += 1 }
            kept.append(area >= minimum ? keptCount : 0)
        }
        for i in blobs.indices where blobs[i] > 0 { blobs[i] = kept[Int(blobs[i])] }
        self.blobs = blobs
        self.blobCount = Int(keptCount)
    }

    /// For each seed, the blob it belongs to (nil: none).
    func blobsOfSeeds(_ seeds: [Seed], personLabels: [Float]?) -> [Int?] {
        seeds.map { seed in
            var counts = [Int](repeating: 0, count: blobCount + 1)
            var total = 0
            for y in max(seed.y0, 0)..<min(seed.y1, height) {
                for x in max(seed.x0, 0)..<min(seed.x1, width) {
                    let i = y * width + x
                    if let person = seed.person {
                        guard let labels = personLabels, Int(labels[i]) == person else { continue }
                    }
                    total += 1
                    counts[Int(blobs[i])] += 1
                }
            }
            guard total > 0, let best = (1..<(blobCount + 1)).max(by: { counts[$0] < counts[$1] }),
                Double(counts[best]) >= Self.seedCoverage * Double(total)
            else { return nil }
            return best
        }
    }

    /// The instance labels (0…n per pixel) and n: blobs split by `seeds` (`personLabels` holds the people's masks).
    func instances(seeds: [Seed], personLabels: [Float]?) -> (labels: [Float], count: Int) {
        let owners = blobsOfSeeds(seeds, personLabels: personLabels)
        var seedsOfBlob = [[Int]](repeating: [], count: blobCount + 1)
        for (s, b) in owners.enumerated() { if let b { seedsOfBlob[b].append(s) } }
        // Provisional instances: one per blob, or one per seed of a blob with two seeds or more.
        var instanceOfBlob = [Int](repeating: 0, count: blobCount + 1)
        var instanceOfSeed = [Int](repeating: 0, count: seeds.count)
        var next = 0
        for b in 1..<(blobCount + 1) {
            if seedsOfBlob[b].count < 2 {
                next += 1
                instanceOfBlob[b] = next
            } else {
                for s in seedsOfBlob[b] {
                    next += 1
                    instanceOfSeed[s] = next
                }
            }
        }
        var provisional = [Int32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let b = Int(blobs[i])
                guard b > 0 else { continue }
                let candidates = seedsOfBlob[b]
                guard candidates.count >= 2 else {
                    provisional[i] = Int32(instanceOfBlob[b])
                    continue
                }
                provisional[i] = Int32(instanceOfSeed[Self.owner(of: x, y, i, among: candidates, seeds, personLabels)])
            }
        }
        // Number by size, largest first.
        var sizes = [Int](repeating: 0, count: next + 1)
        for p in provisional { sizes[Int(p)] += 1 }
        let order = (1..<(next + 1)).filter { sizes[$0] > 0 }.sorted {
            sizes[$0] > sizes[$1] || (sizes[$0] == sizes[$1] && $0 < $1)
        }
        var number = [Float](repeating: 0, count: next + 1)
        for (rank, p) in order.prefix(255).enumerated() { number[p] = Float(rank + 1) }
        return (provisional.map { number[Int($0)] }, min(order.count, 255))
    }

    /// The seed a pixel of a blob with several seeds goes to.
    private static func owner(
        of x: Int, _ y: Int, _ i: Int, among candidates: [Int], _ seeds: [Seed], _ personLabels: [Float]?
    ) -> Int {
        if let labels = personLabels, labels[i] > 0 {
            let person = Int(labels[i])
            if let s = candidates.first(where: { seeds[$0].person == person }) { return s }
        }
        var best: Int?
        for s in candidates where seeds[s].person == nil && seeds[s].contains(x, y) {
            if best == nil || seeds[s].area < seeds[best!].area { best = s }
        }
        if let best { return best }
        return candidates.min { a, b in
            let (da, db) = (seeds[a].distance2(x, y), seeds[b].distance2(x, y))
            return da < db || (da == db && seeds[a].area < seeds[b].area)
        }!
    }

    /// Box seeds from the detector's `objects` (normalised, lower-left origin, on this mask's image): those scoring at
    /// least `seedConfidence`, boxes of one label that overlap merged into their union.
    func boxSeeds(_ objects: [RecognizedObjectObservation]) -> [(seed: Seed, label: String)] {
        var found: [(seed: Seed, label: String)] = []
        for o in objects {
            guard let top = o.labels.first, top.confidence >= Self.seedConfidence else { continue }
            let b = o.boundingBox
            let seed = Seed(
                x0: max(Int((b.x * Double(width)).rounded(.down)), 0),
                y0: max(Int(((1 - b.y - b.height) * Double(height)).rounded(.down)), 0),
                x1: min(Int(((b.x + b.width) * Double(width)).rounded(.up)), width),
                y1: min(Int(((1 - b.y) * Double(height)).rounded(.up)), height), person: nil)
            guard seed.area > 0 else { continue }
            found.append((seed, top.identifier))
        }
        var merged = true
        while merged {
            merged = false
            outer: for a in found.indices {
                for b in found.indices where b > a && found[a].label == found[b].label {
                    let (p, q) = (found[a].seed, found[b].seed)
                    guard p.x0 < q.x1, q.x0 < p.x1, p.y0 < q.y1, q.y0 < p.y1 else { continue }
                    found[a].seed = Seed(
                        x0: min(p.x0, q.x0), y0: min(p.y0, q.y0), x1: max(p.x1, q.x1), y1: max(p.y1, q.y1),
                        person: nil)
                    found.remove(at: b)
                    merged = true
                    break outer
                }
            }
        }
        return found
    }

    /// A seed per person of `personLabels` (0…n per pixel): the box of their pixels.
    func personSeeds(_ personLabels: [Float]) -> [Seed] {
        var boxes: [Int: Seed] = [:]
        for y in 0..<height {
            for x in 0..<width {
                let l = Int(personLabels[y * width + x])
                guard l > 0 else { continue }
                var s = boxes[l] ?? Seed(x0: x, y0: y, x1: x + 1, y1: y + 1, person: l)
                s.x0 = min(s.x0, x)
                s.y0 = min(s.y0, y)
                s.x1 = max(s.x1, x + 1)
                s.y1 = max(s.y1, y + 1)
                boxes[l] = s
            }
        }
        return boxes.keys.sorted().map { boxes[$0]! }
    }
}
