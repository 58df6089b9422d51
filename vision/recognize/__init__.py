"""Reading a card's rank and suit from its corner index (see patch.py for the crop)."""
