import CNCurses
import RewindDaemon
