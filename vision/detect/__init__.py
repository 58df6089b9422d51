"""Finding cards in a camera image: where each card lies (four corners), whether it
shows its back, which card covers which, and upright crops of its corner indices.

Knows nothing of the games, and nothing of what the index says (that is
vision.recognize): it only hands over the crops.
"""

from vision.detect.candidate import CardCandidate
from vision.detect.detector import BadFrame, DetectorConfig, check_image, detect_cards

__all__ = ["BadFrame", "CardCandidate", "DetectorConfig", "check_image", "detect_cards"]
