"""How loud each part of the mix may be, so speech and a cue together never clip.

SDL_mixer adds its channels and clips the sum. eSpeak's speech peaks at up to 0.9 of full scale
(a high crest factor: its loudness is -18 dBFS RMS) and the loudest cue at 0.62, so at full
volume a cue under speech could reach 1.5 and clip (it did, under the touchdown cheer). Every
channel plays at MIX_HEADROOM of its set volume: speech and one cue together then peak at
0.65 * (0.9 + 0.62) = 0.99 of full scale. The cost is about 4 dB of loudness, which the player's
own volume control gives back.
"""

from __future__ import annotations

MIX_HEADROOM = 0.65
