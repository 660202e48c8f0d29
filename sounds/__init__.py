"""The game's sound cues as the package `sudden_death.sounds`: pyproject.toml maps this folder
to it (`package-dir`), so a wheel carries the WAVs, LICENSES.md and GPL-2.txt in
sudden_death/sounds/ and an editable install finds them here, through the import system
(`sudden_death.resources.sounds_dir`). Data only: nothing to import."""
