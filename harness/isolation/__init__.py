"""Running untrusted code: the box (bubblewrap and limits), the clean environment, the sandboxed
student agent and its worker, student programs and UCI engines as processes."""
