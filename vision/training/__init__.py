"""Training the index classifier (`make model`). Only train.py and model.py import torch;
split.py and synth.py are plain numpy/OpenCV, so tests and evaluation can use them."""
