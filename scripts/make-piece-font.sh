#!/usr/bin/env bash
# Rebuilds crates/qi/assets/fonts/qi-xiangqi.woff2: the glyphs of the pieces, the board's
# labels and the Chinese move notation, cut from Noto Serif CJK TC Bold (SIL Open Font
# License 1.1, Debian package fonts-noto-cjk) with fonttools' pyftsubset. The page embeds it so
# that 帥 and 將 show on machines without any CJK font.
#   apt-get install fonts-noto-cjk python3-fonttools python3-brotli
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc
# Face 3 of the collection is Traditional Chinese (TC).
text='帥仕相傌俥炮兵將士象馬車砲卒帅马车将楚河漢界汉一二三四五六七八九进退平前后中進後123456789'
/usr/bin/python3 -m fontTools.subset "$src" --font-number=3 --text="$text" \
    --layout-features='*' --flavor=woff2 --no-hinting --desubroutinize \
    --output-file=crates/qi/assets/fonts/qi-xiangqi.woff2
ls -l crates/qi/assets/fonts/qi-xiangqi.woff2
