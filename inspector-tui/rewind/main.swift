import ArgumentParser
import RewindTUI

print("rewind")
