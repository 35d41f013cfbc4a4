"""The crease pattern as a plane graph: planarising segments, faces, regularising, the local vertex checks."""
