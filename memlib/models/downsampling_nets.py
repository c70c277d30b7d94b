"""Paper 3's networks (Radhakrishnan, Uhler, Belkin 2018, *Downsampling leads to Image Memorization in
Convolutional Autoencoders*): Network D / ND (Fig 2a), D_{a,b} / ND_{a,b} and their nonlinear NLD / NLND (Fig 5),
the small Network DS and its identity initialization (Fig 4, App. A), and Ulyanov et al.'s U-Net (Fig 1).

`memlib.models` re-exports every builder here, so a notebook writes `models.network_d`. The cache key names a
builder by the module it was first written in (`cachekey.describe`), and these were written in `memlib.models`:
each builder's `cache_key` keeps that name, so every model cached before this module existed still hits.
"""
from __future__ import annotations

import torch
from torch import nn


class AtrousConv2d(nn.Conv2d):
    """A 3x3 convolution dilated by d (padding d, stride 1), computed as a plain 3x3 convolution with padding 1 on each
    of the d x d sub-grids of pixels (i + d a, j + d b): the same function, with the same parameters, where the side
    is a multiple of d. PyTorch's CPU kernel for dilated convolutions is many times slower than the plain one."""

    def forward(self, x):
        d = self.dilation[0]
        n, c, h, w = x.shape
        if d == 1 or h % d or w % d:
            return super().forward(x)
        sub = x.reshape(n, c, h // d, d, w // d, d).permute(0, 3, 5, 1, 2, 4).reshape(n * d * d, c, h // d, w // d)
        y = nn.functional.conv2d(sub, self.weight, None, 1, 1)
        return y.reshape(n, d, d, -1, h // d, w // d).permute(0, 3, 4, 1, 5, 2).reshape(n, -1, h, w)


def _conv3(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Conv2d:
    """Paper 3, Sec. 2: kernel 3, one layer of zero padding, no biases (`dilation` d pads d: the size is kept)."""
    if dilation > 1:
        return AtrousConv2d(c_in, c_out, 3, stride=1, padding=dilation, dilation=dilation, bias=False)
    return nn.Conv2d(c_in, c_out, 3, stride=stride, padding=dilation, dilation=dilation, bias=False)


# Receptive field (issue 41). The text gives neither Fig 2a's nor Fig 5's layer counts. Read with kernel-3 layers only,
# at 32x32 no output pixel of D, ND or D_{a,b} depends on the opposite corner's input, so none of them can represent the
# point map the paper reports, and a 3x3 filter at stride 8 reads 9 of every 64 pixels. The fewest changes that make
# every output pixel depend on every input pixel at 32x32, while every other layer keeps the paper's 3x3 kernel:
#   * D's stride-8 layer has a 15x15 kernel with padding 7 (`kernel`): cell i reads pixels 8i-7 .. 8i+7, every pixel
#     (kernel >= stride), and the same 15x15 field as a cell of D_{a,b} (three 3x3 convolutions of stride 2);
#   * COARSE_LAYERS 3x3 convolutions on the downsampled grid (`coarse_layers`): at 32x32 the grid is 4x4, a 3x3
#     convolution moves information one cell, so 3 are the fewest that carry every cell to every other (D had 1,
#     D_{a,b} none: the 4 convolutions after the x8 upsampling reach 4 pixels, never past an 8x8 block);
#   * ND, ND_{a,b} (`atrous`): "the same convolutional layer scheme ... with stride 1" (Sec. 3, 5) is read as the
#     same layers evaluated at every pixel (the a-trous, undecimated form of D): a layer that D applies after a
#     total stride t is dilated by t, so ND's field is D's and the two differ only by the downsampling, as Sec. 3
#     says. With kernel-3 layers at stride 1 and no dilation ND would see 9 pixels around each output.
# tests/test_paper3_field.py checks the dependence at 32x32 for D, ND, D_{a,b}, ND_{a,b}, NLD and NLND, and that the
# earlier reading (the defaults below) fails it. The defaults keep that earlier reading so that the models cached
# under it keep their cache keys (tests/test_cache_key.py). This global field is a departure from the text (Sec. 2's
# kernel 3; Sec. 3's ND differs from D only by the stride and the upsampling): notebook 03 judges its claims on the
# stated layers, `recipes.paper3.D_FIELD` / `AB_FIELD` (kernel 3, the coarse convolutions, ND undilated), and
# measures the global field, `recipes.paper3.D_FIELD_GLOBAL` / `AB_FIELD_GLOBAL`, beside them.
COARSE_LAYERS = 3        # 32 / 8 - 1: the 4x4 grid's cells are at most 3 apart


def network_d(downsample: bool = True, *, filters: int = 128,  # paper 3, Sec. 3: 128 filters
              stride: int = 8,  # paper 3, Sec. 3: stride 8 down, nearest x8 up (32x32 -> 4x4)
              in_channels: int = 3, nonlinear: bool = False,
              kernel: int = 3, coarse_layers: int = 1, atrous: bool = False) -> nn.Sequential:
    """Paper 3, Fig 2a: linear Network D (`downsample=True`) or Network ND.

    Every convolution has `filters` filters except the last (`in_channels`, "3 filters").
    D: conv `kernel`x`kernel` (stride `stride`, padding kernel // 2) -> `coarse_layers` 3x3 convs on the
    downsampled grid -> nearest upsampling x`stride` -> conv -> conv. ND: the same convolutions at stride 1
    without upsampling; with `atrous` the coarse-grid convs are dilated by `stride` (ND is D evaluated at every
    pixel). The layer count is read off the figure, whose image the text does not include: it is our choice.
    Notebook 03 builds `recipes.paper3.D_FIELD` (the text's kernel 3, 3 coarse convs; ND: the same convs at
    stride 1, undilated, no upsampling) and, beside it, `D_FIELD_GLOBAL` (kernel 15, a-trous ND: every output
    pixel depends on every input pixel, see the comment above).
    """
    s = stride if downsample else 1
    d = stride if (atrous and not downsample) else 1
    first = nn.Conv2d(in_channels, filters, kernel, stride=s, padding=kernel // 2, bias=False)
    mods = [first] + [_conv3(filters, filters, dilation=d) for _ in range(coarse_layers)]
    if downsample:
        mods.append(nn.Upsample(scale_factor=stride, mode="nearest"))
    mods += [_conv3(filters, filters), _conv3(filters, in_channels)]
    return _leaky_after_convs(mods) if nonlinear else nn.Sequential(*mods)


def _leaky_after_convs(mods) -> nn.Sequential:
    out = []
    for m in mods:
        out.append(m)
        if isinstance(m, nn.Conv2d):
            out.append(nn.LeakyReLU())   # paper 3, Sec. 6: LeakyReLU after every convolution
    return nn.Sequential(*out)


def conv_autoencoder(a: int = 64, b: int = 192,  # paper 3, Sec. 5 / Fig 6: D_{64,192}
                     *, downsample: bool = True, nonlinear: bool = False, in_channels: int = 3,
                     up_layers: int = 3, coarse_layers: int = 0, atrous: bool = False) -> nn.Sequential:
    """Paper 3, Fig 5: Network D_{a,b} (ND_{a,b} with `downsample=False`; NLD/NLND when `nonlinear`).

    Three stride-2 convolutions with `b` filters (the downsampled representations), `coarse_layers` 3x3
    convolutions with `b` filters on the downsampled grid, one nearest upsampling x8, then `up_layers`
    convolutions with `a` filters and the output convolution (`in_channels`). Fig 5's image is not in the
    text, so `up_layers` and `coarse_layers` are our choice: with fewer than ~4 convolutions after the x8
    upsampling the output is constant inside each 8x8 block and the net cannot fit an image (measured: MSE
    stuck at 1e-2), while the paper reaches ~1e-3; without coarse convolutions no output pixel at 32x32 sees
    beyond its own 15x15 neighbourhood (the comment above `COARSE_LAYERS`: notebook 03 builds 3,
    `recipes.paper3.AB_FIELD`). ND_{a,b} has the same convolutions at stride 1 and no upsampling; with
    `atrous` each is dilated by the stride D_{a,b} has applied before it (1, 2, 4, then 8 on the coarse grid).
    `nonlinear` puts a LeakyReLU after every convolution (Sec. 6). With `b < in_channels * 64` the downsampled
    code is smaller than the image, so D_{a,b} cannot learn the identity (Sec. 5: b >= 3*8*8 = 192 on CIFAR).
    """
    s = 2 if downsample else 1   # paper 3, Sec. 5: 3 convolutions of stride 2, then one x8 upsampling
    dil = (lambda t: t) if (atrous and not downsample) else (lambda t: 1)
    mods = [_conv3(in_channels, b, s, dil(1)), _conv3(b, b, s, dil(2)), _conv3(b, b, s, dil(4))]
    mods += [_conv3(b, b, dilation=dil(8)) for _ in range(coarse_layers)]
    if downsample:
        mods.append(nn.Upsample(scale_factor=8, mode="nearest"))
    mods += [_conv3(b, a)] + [_conv3(a, a) for _ in range(up_layers - 1)] + [_conv3(a, in_channels)]
    return _leaky_after_convs(mods) if nonlinear else nn.Sequential(*mods)


def network_ds(*, channels: int = 4, identity: bool = False) -> nn.Sequential:
    """Paper 3, Fig 4a / App. A: the small downsampling Network DS on 1x2x2 images.

    conv 1->4 (stride 2: 2x2 -> 1x1), nearest upsampling x2, three convs 4->4, conv 4->1.
    It can represent the identity (`identity_init_ds_`), yet from PyTorch's default
    initialization it learns a point map (Fig 4b/c). `identity=True` applies `identity_init_ds_`.
    """
    model = nn.Sequential(_conv3(1, channels, 2), nn.Upsample(scale_factor=2, mode="nearest"),
                         _conv3(channels, channels), _conv3(channels, channels), _conv3(channels, channels),
                         _conv3(channels, 1))
    return identity_init_ds_(model) if identity else model


@torch.no_grad()
def identity_init_ds_(model: nn.Sequential) -> nn.Sequential:
    """Paper 3, App. A: set Network DS's weights so that it computes the identity on 2x2 images.

    Layer 1 copies pixel (r, c) of the padded input into channel 2r + c; after upsampling, layers
    2 and 3 shift every channel's constant 2x2 block so only its top-left pixel survives, layer 4
    moves channel i to pixel i, and the last layer sums the channels.
    """
    convs = [m for m in model if isinstance(m, nn.Conv2d)]
    if len(convs) != 5 or convs[0].weight.shape != (4, 1, 3, 3):
        raise ValueError("identity_init_ds_ expects network_ds() (5 convolutions, 4 filters)")
    for conv in convs:
        conv.weight.zero_()
    for f, (r, c) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)]):
        convs[0].weight[f, 0, r, c] = 1.0                      # step 1
    for i in range(4):
        convs[1].weight[i, i, 1, 2] = 1.0                      # step 3
        convs[2].weight[i, i, 2, 1] = 1.0                      # step 4
        convs[4].weight[0, i, 1, 1] = 1.0                      # step 6
    for f, (r, c) in enumerate([(1, 1), (1, 0), (0, 1), (0, 0)]):
        convs[3].weight[f, f, r, c] = 1.0                      # step 5
    return model


class UNet(nn.Module):
    """Paper 3, Fig 1: the encoder-decoder of Ulyanov et al.'s deep image prior (used there for large
    hole inpainting). Each level: conv stride 2 + BN + LeakyReLU, conv + BN + LeakyReLU; the decoder
    upsamples x2 (nearest), concatenates the level's skip branch (1x1 conv to `skip` channels; none
    when `skip=0`), conv + BN + LeakyReLU, 1x1 conv + BN + LeakyReLU; a 1x1 conv and a sigmoid output.
    """

    def __init__(self, *, levels: int = 5, channels: int = 128, skip: int = 4, in_channels: int = 3):
        super().__init__()
        def block(c_in, c_out, k=3, stride=1):
            return [nn.Conv2d(c_in, c_out, k, stride, k // 2), nn.BatchNorm2d(c_out), nn.LeakyReLU(0.2)]
        self.down, self.skips, self.up = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        c = in_channels
        for _ in range(levels):
            self.skips.append(nn.Sequential(*block(c, skip, 1)) if skip else nn.Identity())
            self.down.append(nn.Sequential(*block(c, channels, 3, 2), *block(channels, channels)))
            self.up.append(nn.Sequential(*block(channels + skip, channels), *block(channels, channels, 1)))
            c = channels
        self.skip = skip
        self.out = nn.Sequential(nn.Conv2d(channels, in_channels, 1), nn.Sigmoid())

    def forward(self, x):
        saved = []
        for down, sk in zip(self.down, self.skips):
            saved.append(sk(x) if self.skip else None)
            x = down(x)
        for up, s in zip(reversed(self.up), reversed(saved)):
            x = nn.functional.interpolate(x, scale_factor=2, mode="nearest")
            x = up(torch.cat([x, s], 1) if s is not None else x)
        return self.out(x)


def unet(*, levels: int = 5, channels: int = 128,  # Ulyanov et al. (2017), inpainting: 5 levels x 128
         skip: int = 4, in_channels: int = 3) -> UNet:
    """Paper 3, Fig 1: `UNet` (input side must be divisible by 2**levels)."""
    return UNet(levels=levels, channels=channels, skip=skip, in_channels=in_channels)


# The cache key's name of each builder (cachekey.describe): "memlib.models.<name>", where they were first written.
for _builder in (network_d, conv_autoencoder, network_ds, unet):
    _builder.cache_key = f"memlib.models.{_builder.__qualname__}"
del _builder
