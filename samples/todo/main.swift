import Rewind
import RewindInspector

print("todo")
