"""What a seat is shown: views rendered as text and JSON, names and glossaries, prompt texts."""
