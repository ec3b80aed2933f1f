"""Championships and their seating plans; the models arrive with the tournament issues."""
