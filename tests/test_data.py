import gzip
import pickle

import numpy as np
import pytest
import torch

from memlib import data
from memlib.runtime import MemlibError
from memlib.metrics import correlation


def write_idx(path, arr: np.ndarray, gz: bool):
    code = {np.uint8: 0x08}[arr.dtype.type]
    header = bytes([0, 0, code, arr.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in arr.shape)
    blob = header + arr.tobytes()
    if gz:
        with gzip.open(str(path) + ".gz", "wb") as f:
            f.write(blob)
    else:
        path.write_bytes(blob)


@pytest.mark.parametrize("name,folder", [("mnist", "MNIST"), ("fashion_mnist", "FashionMNIST")])
@pytest.mark.parametrize("gz", [False, True])
def test_idx_reader_on_files_in_the_real_format(tmp_path, name, folder, gz):
    rng = np.random.default_rng(0)
    raw = tmp_path / folder / "raw"
    raw.mkdir(parents=True)
    imgs = {s: rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8) for s, n in (("train", 5), ("t10k", 3))}
    lbls = {s: rng.integers(0, 10, size=len(v), dtype=np.uint8) for s, v in imgs.items()}
    for s in imgs:
        write_idx(raw / f"{s}-images-idx3-ubyte", imgs[s], gz)
        write_idx(raw / f"{s}-labels-idx1-ubyte", lbls[s], gz)
    for split, s in (("train", "train"), ("test", "t10k")):
        x, y = data.load_images(name, split=split, root=tmp_path)
        assert x.dtype == torch.float32 and x.shape == (len(imgs[s]), 1, 28, 28)
        assert y.dtype == torch.int64
        np.testing.assert_allclose(x[:, 0].numpy(), imgs[s] / 255.0, rtol=0, atol=1e-7)
        np.testing.assert_array_equal(y.numpy(), lbls[s])


def test_cifar_reader_on_batches_in_the_real_format(tmp_path):
    rng = np.random.default_rng(1)
    base = tmp_path / "cifar-10-batches-py"
    base.mkdir()
    written = {}
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        arr = rng.integers(0, 256, size=(4, 3072), dtype=np.uint8)
        labels = rng.integers(0, 10, size=4).tolist()
        with open(base / name, "wb") as f:
            pickle.dump({b"data": arr, b"labels": labels, b"batch_label": name.encode()}, f)
        written[name] = (arr, labels)
    x, y = data.load_images("cifar10", split="test", root=tmp_path)
    arr, labels = written["test_batch"]
    assert x.shape == (4, 3, 32, 32)
    # CIFAR rows are 1024 red, then green, then blue values, each row-major 32x32
    np.testing.assert_allclose(x[2, 1, 5, 7].item(), arr[2, 1024 + 5 * 32 + 7] / 255.0, atol=1e-7)
    assert y.tolist() == labels
    xt, yt = data.load_images("cifar10", split="train", root=tmp_path)
    assert xt.shape == (20, 3, 32, 32) and len(yt) == 20


def test_missing_dataset_names_expected_files_and_how_to_get_them(tmp_path):
    with pytest.raises(data.DatasetMissing) as e:
        data.load_images("mnist", root=tmp_path)
    msg = str(e.value)
    assert "train-images-idx3-ubyte" in msg and str(tmp_path / "MNIST" / "raw") in msg and "download" in msg
    assert "\n" not in msg
    with pytest.raises(data.DatasetMissing, match="cifar-10-batches-py"):
        data.load_images("cifar10", root=tmp_path)
    with pytest.raises(data.DatasetMissing, match="data root"):
        data.load_images("mnist")


def test_unknown_dataset_lists_valid_ones():
    with pytest.raises(ValueError, match="digits"):
        data.load_images("imagenet")


@pytest.mark.parametrize("name,shape,classes", [("digits", (1, 8, 8), 10), ("faces", (1, 25, 25), 2),
                                                ("photos", (3, 32, 32), len(data.PHOTOS))])
def test_embedded_sets(name, shape, classes):
    x, y = data.load_images(name)
    xt, yt = data.load_images(name, split="test")
    assert x.shape[1:] == shape and xt.shape[1:] == shape
    assert x.dtype == torch.float32 and y.dtype == torch.int64
    assert 0 <= x.min() and x.max() <= 1 and x.std() > 0.05
    assert set(y.tolist()) == set(range(classes)) and len(set(yt.tolist())) >= 2


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.77, 1.0, -0.5])
def test_correlated_probes_are_exact(rho):
    x, _ = data.training_digit()
    x = data.standardize(x)
    p = data.correlated_probes(x, rho, 16, seed=3)
    assert p.shape == (16, 1, 28, 28)
    # numpy's Pearson correlation as the reference
    for row in p.reshape(16, -1).double().numpy():
        r = np.corrcoef(row, x.reshape(-1).double().numpy())[0, 1]
        assert abs(r - rho) < 1e-5
    np.testing.assert_allclose(p.reshape(16, -1).norm(dim=1).numpy(), x.norm().item(), rtol=1e-5)
    assert not torch.allclose(p[0], p[1]) or rho == 1.0


def test_probes_kinds_and_seed():
    for kind in data.PROBE_KINDS:
        a = data.probes(kind, 6, (1, 20, 20), seed=1)
        assert a.shape == (6, 1, 20, 20) and 0 <= a.min() and a.max() <= 1 and a.std() > 0
        assert torch.equal(a, data.probes(kind, 6, (1, 20, 20), seed=1))
    with pytest.raises(ValueError, match="noise"):
        data.probes("stars", 1)


def test_training_digit_is_a_seven_from_digits_without_mnist():
    x, src = data.training_digit()
    assert src == "digits" and x.shape == (1, 1, 28, 28)
    d, y = data.load_images("digits")
    seven = data.resize(d[(y == 7).nonzero()[0]], 28)
    assert correlation(x, seven).item() > 0.999


def test_probe_panel_starts_with_the_training_image():
    x, _ = data.training_digit()
    panel, names = data.probe_panel(x)
    assert names[0] == "train" and torch.equal(panel[0], x[0]) and len(panel) == len(names)
    assert {"digit", "image", "pattern", "square", "noise"} <= set(names)


def test_swiss_roll():
    pts = data.swiss_roll(500, seed=2)
    assert pts.shape == (500, 2) and pts.abs().max() <= 1.0


def test_first_of_each_picks_the_first_example_of_every_class():
    y = torch.tensor([3, 1, 3, 0, 1, 0])
    assert data.first_of_each(y) == [3, 1, 0]                    # classes 0, 1, 3 in sorted order
    assert data.first_of_each(y, (1, 3)) == [1, 0]


def test_nth_of_each_wraps_past_a_class_count():
    # class 0 at indices 0, 2, 4; class 1 at 1, 3 (a brute-force reference)
    y = torch.tensor([0, 1, 0, 1, 0])
    assert data.nth_of_each(y, 0) == [0, 1] == data.first_of_each(y)
    assert data.nth_of_each(y, 1) == [2, 3]
    assert data.nth_of_each(y, 2) == [4, 1]          # class 1 has 2 examples: the 2nd wraps to its first
    assert data.nth_of_each(y, 200, classes=[0]) == [[0, 2, 4][200 % 3]]
    with pytest.raises(MemlibError, match="no example of class 7"):
        data.nth_of_each(y, 0, classes=[7])
