import CLibWebSockets
import Rewind
import RewindWire
