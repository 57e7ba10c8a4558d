"""Map data the engine fetches for the app (Qt-free): the offline copy of a trip's area."""
