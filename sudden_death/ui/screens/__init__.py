"""The screens: one per decision, the dialogs, the explorer and the review lists, each a `Menu`
and what its keys do. They talk to the app only through `Host`."""
