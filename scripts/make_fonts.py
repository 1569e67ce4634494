"""Rebuild the fonts Herald draws text with (``bot/render/fonts/``) from Debian's Noto packages.

    apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji unicode-data
    pip install -e '.[fonts]'   # fontTools, declared as the optional extra "fonts"
    python scripts/make_fonts.py            # writes bot/render/fonts/
    python scripts/make_fonts.py --fonts-only  # the fonts only, keeping the emoji pages
    python scripts/make_fonts.py --check    # rebuilds in a temporary folder, compares the coverage

Only this script needs fontTools; the bot reads the files it writes with Pillow alone. What it
writes, each a subset of an open-licensed Noto font (SIL Open Font License 1.1), so the package
carries only what names need (16 MiB in all, four fifths of it the CJK font):

* ``NotoSans.ttf``: Latin (with every diacritic Noto Sans has, Vietnamese included), Greek,
  Cyrillic, combining marks, punctuation, currency and number signs;
* ``NotoSansHebrew.ttf`` and ``NotoSansArabic.ttf``: the whole scripts with their shaping tables
  (Pillow's layout engine, raqm, joins and orders them; without it the kit uses the presentation
  forms kept here);
* ``NotoSansCJK.otf`` (from Noto Sans CJK SC): every character of the CJK blocks the font has
  (:data:`CJK_BLOCKS`): all the Unified Ideographs, simplified and traditional, Extension A and
  the plane-2 ideographs of names (43,448 characters), all 11,172 Hangul syllables and the Jamo,
  kana, Bopomofo, CJK punctuation and fullwidth forms; the largest file (12.6 MiB);
* ``NotoSansSymbols.ttf`` and ``NotoSansSymbols2.ttf``: arrows, technical and miscellaneous
  symbols, dingbats, geometric shapes, game pieces (the text presentation of ⚙ and friends);
* ``NotoSansMath.ttf``: the mathematical bold, script, fraktur and double-struck letters that
  decorate many display names;
* ``NotoSansThai.ttf`` and ``NotoSansDevanagari.ttf``: two more scripts of many Discord
  communities, whole (Devanagari needs raqm to be shaped; without it its letters are drawn in
  order, unjoined);
* ``emoji-*.webp`` and ``emoji.txt``: every fully-qualified emoji of ``emoji-test.txt`` (skin
  tones, flags, keycaps and joined sequences included, but for joined people with skin tones,
  which the kit draws person by person) drawn by Noto Color Emoji, scaled to ``EMOJI_PX`` pixels
  and laid out in sprite pages; ``emoji.txt`` maps each sequence to its cell. (FreeType cannot
  scale a colour bitmap font, and the pages are a fifth of the font's size.)
* ``coverage.txt``: the code points each font maps, as ranges, which the kit reads to choose a
  font per character without probing glyphs;
* ``LICENSE-*.txt``: the Debian packages' copyright files (the fonts' licence texts), and
  ``SOURCES.txt``: the packages and versions they came from.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image, ImageDraw, ImageFont, features

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bot" / "render" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
UNICODE = Path("/usr/share/unicode")
PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji", "unicode-data")

EMOJI_PX = 40
"""The emoji sprites' height: about the largest text on a board."""
QUALITY = 75
"""The sprite pages' WebP quality: at 20-40 px no one tells it from lossless, at a third the size."""
PAGE = 16
"""Sprites per row and column of a page."""


def ranges(*spans: tuple[int, int]) -> set[int]:
    return {cp for lo, hi in spans for cp in range(lo, hi + 1)}


LATIN_GREEK_CYRILLIC = ranges(
    (0x0020, 0x007E), (0x00A0, 0x024F),  # Latin-1, Latin Extended-A and -B
    (0x0250, 0x02FF), (0x1D00, 0x1DBF),  # IPA, spacing modifier letters, phonetic extensions
    (0x0300, 0x036F),  # combining diacritical marks
    (0x0370, 0x03FF), (0x1F00, 0x1FFF),  # Greek and Coptic, Greek Extended
    (0x0400, 0x052F), (0x1C80, 0x1C8F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F),  # Cyrillic
    (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F),  # more marks
    (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F),  # Latin Extended
    (0x2000, 0x206F), (0x2070, 0x209F), (0x20A0, 0x20C0),  # punctuation, sub/superscripts, currency
    (0x2100, 0x214F), (0x2150, 0x218F),  # letterlike symbols, number forms
    (0xFB00, 0xFB06), (0xFFFD, 0xFFFD),  # Latin ligatures, the replacement character
)
SYMBOLS = ranges(
    (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2300, 0x23FF), (0x2460, 0x24FF),  # arrows, maths,
    (0x2500, 0x257F), (0x2580, 0x259F), (0x25A0, 0x25FF), (0x2600, 0x26FF),  # technical, boxes,
    (0x2700, 0x27BF), (0x27C0, 0x27FF), (0x2900, 0x297F), (0x2B00, 0x2BFF),  # shapes, dingbats
    (0x1F000, 0x1F0FF), (0x1F100, 0x1F1FF), (0x1F300, 0x1F5FF), (0x1F650, 0x1F67F),
    (0x1F680, 0x1F6FF), (0x1F780, 0x1F7FF), (0x1F800, 0x1F8FF), (0x1FA00, 0x1FAFF),
)
MATH_LETTERS = ranges((0x2200, 0x22FF), (0x27C0, 0x27EF), (0x2980, 0x2AFF), (0x1D400, 0x1D7FF))
"""Mathematical alphanumerics: the bold, script, fraktur and double-struck letters of many
display names ("𝓙𝓸𝓷𝓪𝓱"), and the mathematical operators the symbol fonts lack."""


CJK_BLOCKS = ranges(
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs, all of them
    (0x3400, 0x4DBF),  # Extension A
    (0x20000, 0x3FFFF),  # planes 2 and 3: the extensions' ideographs the font has (𠮷, 𡈽)
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0x2E80, 0x2FFF), (0x31C0, 0x31EF), (0x3190, 0x319F),  # radicals, strokes, kanbun
    (0xAC00, 0xD7A3),  # all 11,172 Hangul syllables
    (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xD7B0, 0xD7FF),  # Hangul Jamo
    (0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF),  # kana
    (0x3100, 0x312F), (0x31A0, 0x31BF),  # Bopomofo
    (0x3000, 0x303F), (0x3200, 0x33FF),  # CJK punctuation, enclosed letters, compatibility
    (0xFE10, 0xFE1F), (0xFE30, 0xFE6F), (0xFF00, 0xFFEF),  # vertical, small, half and full width
)
"""Every character of the CJK blocks that Noto Sans CJK SC has: the whole Unified Ideographs block
(simplified, traditional, Japanese and Korean forms alike), Extension A and the rarer ideographs
of planes 2 and 3 it maps (those of Hong Kong's, Taiwan's and Japan's standards: names such as
𠮷田), every Hangul syllable and Jamo, kana, Bopomofo and CJK punctuation, with their halfwidth and
fullwidth forms. (Until the list widened, the subset kept only GB 2312 level 1, the Jōyō kanji
and KS X 1001's Hangul: 龍, 鄧 and 똠 fell to the placeholder.)"""


def subset_font(source: TTFont, keep: set[int], out: Path) -> set[int]:
    """Write ``source`` cut down to the code points of ``keep`` it has; returns them."""
    cmap = set(source.getBestCmap())
    wanted = sorted(cmap & keep)
    options = subset.Options()
    options.layout_features = ["*"]  # shaping (Arabic joining, marks, ligatures) stays
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False  # drawn anti-aliased at 18-40 px: hints only add bytes
    options.desubroutinize = False
    sub = subset.Subsetter(options)
    sub.populate(unicodes=wanted)
    sub.subset(source)
    source.save(str(out))
    return set(TTFont(str(out)).getBestCmap())


def emoji_sequences() -> list[str]:
    """Every fully-qualified emoji (and component) of the Unicode emoji test file, in its order."""
    out: list[str] = []
    for line in (UNICODE / "emoji" / "emoji-test.txt").read_text(encoding="utf-8").splitlines():
        if ";" not in line or line.startswith("#"):
            continue
        points, status = line.split(";", 1)
        if status.split("#")[0].strip() in ("fully-qualified", "component"):
            out.append("".join(chr(int(p, 16)) for p in points.split()))
    return out


def emoji_pages(out: Path) -> tuple[list[str], int]:
    """Draw every emoji sequence the colour font has, scaled to EMOJI_PX, into sprite pages;
    write ``emoji.txt`` (one line per sequence: code points, page, cell) and return the
    sequences drawn and the sprites' width."""
    if not features.check("raqm"):
        sys.exit("drawing joined emoji sequences needs Pillow with raqm")
    font = ImageFont.truetype(str(NOTO / "NotoColorEmoji.ttf"), 109,
                              layout_engine=ImageFont.Layout.RAQM)
    cmap = set(TTFont(str(NOTO / "NotoColorEmoji.ttf")).getBestCmap())
    width = round(EMOJI_PX * 136 / 128)
    sprites: list[tuple[str, Image.Image]] = []
    for seq in emoji_sequences():
        if any(ord(c) not in cmap for c in seq if c not in "\u200d\ufe0f"):
            continue
        if "\u200d" in seq and any("\U0001f3fb" <= c <= "\U0001f3ff" for c in seq):
            continue  # joined people with skin tones (1,130 of them): drawn person by person
        if font.getlength(seq) > 140:  # no single glyph for the sequence: drawn in parts
            continue
        probe = Image.new("RGBA", (136, 128), (0, 0, 0, 0))
        ImageDraw.Draw(probe).text((0, 0), seq, font=font, embedded_color=True)
        glyph = probe.resize((width, EMOJI_PX), Image.Resampling.LANCZOS)
        sprites.append((seq, glyph))
    lines = [f"# emoji sprites: {width}x{EMOJI_PX} px, {PAGE}x{PAGE} per page; "
             "code points; page; cell"]
    for start in range(0, len(sprites), PAGE * PAGE):
        page = Image.new("RGBA", (PAGE * width, PAGE * EMOJI_PX), (0, 0, 0, 0))
        number = start // (PAGE * PAGE)
        for k, (seq, glyph) in enumerate(sprites[start:start + PAGE * PAGE]):
            page.paste(glyph, ((k % PAGE) * width, (k // PAGE) * EMOJI_PX))
            lines.append(f"{' '.join(f'{ord(c):X}' for c in seq)};{number};{k}")
        page.save(out / f"emoji-{number:02d}.webp", quality=QUALITY, method=6)
    (out / "emoji.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [seq for seq, _ in sprites], width


def spans(points: set[int]) -> str:
    """``20-7E A0-24F ...``: code points as hexadecimal ranges."""
    out: list[str] = []
    run: list[int] = []
    for cp in sorted(points):
        if run and cp == run[-1] + 1:
            run.append(cp)
            continue
        if run:
            out.append(f"{run[0]:X}-{run[-1]:X}" if len(run) > 1 else f"{run[0]:X}")
        run = [cp]
    if run:
        out.append(f"{run[0]:X}-{run[-1]:X}" if len(run) > 1 else f"{run[0]:X}")
    return " ".join(out)


def versions() -> str:
    lines = []
    for package in PACKAGES:
        try:
            version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], check=True,
                                     capture_output=True, text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            version = "unknown"
        lines.append(f"{package} {version} (Debian)")
    return "\n".join(lines)


def build(out: Path, *, emoji: bool = True) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if old.is_file() and (emoji or not old.name.startswith("emoji")):
            old.unlink()
    coverage: list[tuple[str, set[int]]] = []
    plan = [
        ("NotoSans.ttf", TTFont(str(NOTO / "NotoSans-Regular.ttf")), LATIN_GREEK_CYRILLIC),
        ("NotoSansHebrew.ttf", TTFont(str(NOTO / "NotoSansHebrew-Regular.ttf")), None),
        ("NotoSansArabic.ttf", TTFont(str(NOTO / "NotoSansArabic-Regular.ttf")), None),
    ]
    cjk = next(f for f in TTCollection(str(CJK)).fonts
               if f["name"].getDebugName(1) == "Noto Sans CJK SC")
    plan.append(("NotoSansCJK.otf", cjk, CJK_BLOCKS))
    plan.append(("NotoSansSymbols.ttf", TTFont(str(NOTO / "NotoSansSymbols-Regular.ttf")), SYMBOLS))
    plan.append(("NotoSansSymbols2.ttf", TTFont(str(NOTO / "NotoSansSymbols2-Regular.ttf")), SYMBOLS))
    plan.append(("NotoSansMath.ttf", TTFont(str(NOTO / "NotoSansMath-Regular.ttf")), MATH_LETTERS))
    plan.append(("NotoSansThai.ttf", TTFont(str(NOTO / "NotoSansThai-Regular.ttf")), None))
    plan.append(("NotoSansDevanagari.ttf", TTFont(str(NOTO / "NotoSansDevanagari-Regular.ttf")),
                 None))
    for name, source, keep in plan:
        points = subset_font(source, keep if keep is not None else set(source.getBestCmap()),
                             out / name)
        coverage.append((name, points))
        print(f"{name}: {len(points)} characters, {(out / name).stat().st_size / 1024:.0f} KiB")
    if emoji:
        drawn, _ = emoji_pages(out)
        print(f"emoji: {len(drawn)} sequences, "
              f"{sum(p.stat().st_size for p in out.glob('emoji-*.webp')) / 1024:.0f} KiB")
    text = ["# the code points each font maps (hexadecimal ranges), in fallback order"]
    text += [f"{name}: {spans(points)}" for name, points in coverage]
    (out / "coverage.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
    for package in ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"):
        shutil.copyfile(f"/usr/share/doc/{package}/copyright", out / f"LICENSE-{package}.txt")
    (out / "SOURCES.txt").write_text(
        "Subsets of the Noto fonts (SIL Open Font License 1.1, see the LICENSE files), made by\n"
        "scripts/make_fonts.py from these Debian packages:\n\n" + versions() + "\n", encoding="utf-8")
    total = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    print(f"total: {total / 2**20:.2f} MiB in {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--fonts-only", action="store_true",
                        help="keep the emoji pages as they are (drawing them takes minutes)")
    parser.add_argument("--check", action="store_true",
                        help="rebuild in a temporary folder and compare the coverage")
    args = parser.parse_args()
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            build(Path(tmp))
            same = (Path(tmp) / "coverage.txt").read_bytes() == (OUT / "coverage.txt").read_bytes()
            same = same and (Path(tmp) / "emoji.txt").read_bytes() == (OUT / "emoji.txt").read_bytes()
            print("coverage unchanged" if same else "coverage differs: run without --check")
            sys.exit(0 if same else 1)
    build(args.out, emoji=not args.fonts_only)


if __name__ == "__main__":
    main()
