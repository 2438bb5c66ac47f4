import Rewind
import RewindInspector

print("stress")
