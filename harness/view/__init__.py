"""Views: the HTML report and its board viewer, the templates they share."""
