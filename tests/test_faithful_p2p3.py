"""Issue 27 (faithful measurements) for papers 2 and 3: test photos independent of the training photos,
claims that can hold on the paper's own numbers and fail on numbers that contradict it."""
import numpy as np
import torch

from memlib import data
from memlib.metrics import nearest_train_scores


def test_no_test_photo_shares_a_source_photo_with_a_training_photo():
    x, y = data.load_images("photos")
    xt, yt = data.load_images("photos", split="test")
    assert not set(data.PHOTOS) & set(data.TEST_PHOTOS)
    assert not set(y.tolist()) & set(yt.tolist())                        # labels name the source photo
    assert set(yt.tolist()) == set(range(len(data.PHOTOS), len(data.PHOTOS) + len(data.TEST_PHOTOS)))
    # the sources are different pictures, not the same picture under two names (e.g. skimage's cat = chelsea)
    frames = {name: data._photo_views(name)[0] for name in data.PHOTOS + data.TEST_PHOTOS}
    for a in data.TEST_PHOTOS:
        for b in data.PHOTOS:
            assert not torch.allclose(frames[a], frames[b], atol=0.05), (a, b)
    # and no test image is a view of a training photo: none correlates closely with any training image
    best, _ = nearest_train_scores(xt, x)
    assert best.max().item() < 0.9


def test_photos_are_deterministic_and_the_first_test_images_come_from_different_photos():
    xt, yt = data.load_images("photos", split="test")
    xt2, yt2 = data.load_images("photos", split="test")
    assert torch.equal(xt, xt2) and torch.equal(yt, yt2)
    assert len(set(yt[:len(data.TEST_PHOTOS)].tolist())) == len(data.TEST_PHOTOS)
    assert xt.shape == (10 * len(data.TEST_PHOTOS), 3, 32, 32) and 0 <= xt.min() and xt.max() <= 1
    x, y = data.load_images("photos")
    assert x.shape == (len(data.TRAIN_VIEWS) * len(data.PHOTOS), 3, 32, 32)
    assert np.array_equal(np.unique(y.numpy()), np.arange(len(data.PHOTOS)))
