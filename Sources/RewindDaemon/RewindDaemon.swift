import CLibWebSockets
import CSQLite
import RewindWire
