"""Road-trip mode (seed 000): named routes, corridors, directional progress, pacing, geocoding."""
