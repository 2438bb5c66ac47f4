import Foundation
import Rewind

extension Interpreter {
    /// The todo app's interpreter: the dependencies go in once, at launch, and the interpreter that performs
    /// ``TodoEffects`` with them comes out (dependency injection by currying). The clock, the other dependency, is
    /// the store's (`StoreConfiguration(clock:)`): the search debounce waits on it.
    ///
    /// - Parameters:
    ///   - file: The path of the list's JSON file.
    ///   - fileSystem: Where the file is read and written.
    ///   - ids: Where new items get their ids.
    @MainActor
    static func live(file: String, fileSystem: any FileSystem, ids: SequentialIDs) -> Interpreter {
        Interpreter()
            .handling(TodoEffects.NextID.self) { _ in
                ids.next()
            }
            .handling(TodoEffects.Save.self) { save in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                do {
                    try fileSystem.write(try encoder.encode(save.todos), to: file)
                    return .success(save.todos.count)
                } catch {
                    return .failure(TodoEffects.FileError(reason: "cannot write \(file): \(error.localizedDescription)"))
                }
            }
            .handling(TodoEffects.Load.self) { _ in
                let data: Data?
                do {
                    data = try fileSystem.contents(of: file)
                } catch {
                    return .failure(TodoEffects.FileError(reason: "cannot read \(file): \(error.localizedDescription)"))
                }
                guard let data else {
                    return .failure(TodoEffects.FileError(reason: "nothing saved yet at \(file)"))
                }
                do {
                    let todos = try JSONDecoder().decode([Todo].self, from: data)
                    ids.skip(past: todos.map(\.id).max() ?? 0)
                    return .success(todos)
                } catch {
                    return .failure(TodoEffects.FileError(reason: "\(file) is not a todo list"))
                }
            }
    }
}
