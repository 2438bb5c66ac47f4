// The app: a shopping cart, with ReSwift-style action structs.

struct CartItem: Codable, Sendable, Equatable {
    var name: String
    var quantity: Int
}

struct CartState: Codable, Sendable, Equatable {
    var items: [CartItem] = []
    var total: Int = 0
}

struct AddItem: Action, Codable { var name: String; var quantity: Int }
struct RemoveItem: Action, Codable { var index: Int }
struct ClearCart: Action, Codable {}

/// The app's reducer: pure, no effects.
func cartReducer(action: any Action, state: CartState?) -> CartState {
    var state = state ?? CartState()
    switch action {
    case let add as AddItem:
        state.items.append(CartItem(name: add.name, quantity: add.quantity))
    case let remove as RemoveItem where state.items.indices.contains(remove.index):
        state.items.remove(at: remove.index)
    case is ClearCart:
        state.items = []
    default:
        break
    }
    state.total = state.items.reduce(0) { $0 + $1.quantity }
    return state
}
