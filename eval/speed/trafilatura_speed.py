#!/usr/bin/env python3
"""trafilatura on the speed sample: trafilatura.extract(raw bytes) per page with its defaults, best of 3.

    python3 eval/speed/trafilatura_speed.py SPEED_SAMPLE.txt PAGES_DIR
"""
import sys

import trafilatura

from speed_sample import load_pages, print_best_of_three

pages = load_pages(sys.argv[1], sys.argv[2])
print_best_of_three(f"trafilatura {trafilatura.__version__}", pages, trafilatura.extract)
