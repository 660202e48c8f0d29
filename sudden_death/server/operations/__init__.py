"""What an operator sees of a running server and does with it (issue 70, docs/server.md "Seen
from outside"): the probes (health.py), the metrics (watch.py, the seam the handler tells;
metrics.py, prometheus_client's, loaded only with `--metrics-from`), a clean stop in a cluster
(draining.py) and the garbage collector's settings (collector.py).

Nothing here changes what a game does, and no role imports it. Nothing is imported here.
"""
