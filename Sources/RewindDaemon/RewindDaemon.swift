import CSQLite
import RewindWire
