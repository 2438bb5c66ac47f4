import Rewind
import RewindInspector

print("login")
