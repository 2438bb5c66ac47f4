// RewindWire: JSON values, JSON Pointer, JSON Patch and the protocol messages.
