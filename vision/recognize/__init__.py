"""Reading a card's rank and suit from its corner index (see patch.py for the crop).

`IndexClassifier.load(path=None, deck=None)` gives `classify(patches)` and
`read_card(image, quad or candidate)`; a card is given only when the calibrated
confidence is reached and the two corners agree, else None (abstain).
"""

from vision.recognize.classifier import (
                                         Calibration,
                                         CardReading,
                                         IndexClassifier,
                                         ModelMissing,
                                         Reading,
                                         combine,
)
from vision.recognize.patch import (
                                         INDEX_BOX,
                                         PATCH_H,
                                         PATCH_SIZE,
                                         PATCH_W,
                                         extract_index_patches,
                                         index_quads,
                                         normalize_quad,
)

__all__ = ["INDEX_BOX", "PATCH_H", "PATCH_SIZE", "PATCH_W", "Calibration", "CardReading",
           "IndexClassifier", "ModelMissing", "Reading", "combine", "extract_index_patches",
           "index_quads", "normalize_quad"]
