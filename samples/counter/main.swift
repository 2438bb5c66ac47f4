import Rewind
import RewindInspector

print("counter")
