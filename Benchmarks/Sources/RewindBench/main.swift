// rewind-bench: runs Rewind's benchmarks and writes BENCHMARKS.md. See BenchOptions for the command line.
import BenchKit
import Foundation

let options: BenchOptions
do {
    options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("rewind-bench: \(message)\n\(BenchOptions.usage)\n".utf8))
        exit(2)
    }
    print(BenchOptions.usage)
    exit(0)
}

do {
    let report = try await BenchRunner.run(options)
    var markdown = report.markdown()
    // The soak's latest figures (`make soak` writes them; they take minutes, so this run does not measure them).
    if !report.quick, let soak = try? String(contentsOfFile: "SOAK.md", encoding: .utf8) {
        markdown += "\n" + soak
    }
    if let output = options.output {
        let url = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(markdown.utf8).write(to: url)
        FileHandle.standardError.write(Data("rewind-bench: wrote \(output)\n".utf8))
    }
    let rows = report.targetRows
    let missed = rows.filter { $0.row.met == false }
    print("rewind-bench: \(rows.count - missed.count) of \(rows.count) targets met"
        + (report.quick ? " (quick mode: indicative only)" : ""))
    for (area, row) in missed {
        print("  missed — \(area): \(row.figure): \(row.value) (target \(row.target?.text ?? ""))")
    }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("rewind-bench: a benchmark failed: \(error)\n".utf8))
    exit(1)
}
