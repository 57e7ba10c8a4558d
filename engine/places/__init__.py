"""City packs: any city on Earth planned from OpenStreetMap data, with labelled estimates where no open data exists."""
