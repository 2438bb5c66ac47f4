import Rewind
