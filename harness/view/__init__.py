"""Views: board geometry, the game viewer and its page, plots, the templates every page shares
(a feature's own page lives in its folder: grading/report_html.py, tournament/page.py, compare/page.py)."""
