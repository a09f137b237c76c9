#!/usr/bin/env python3
"""Python jusText 3.0.2 on the speed sample: justext.justext(raw bytes, English) per page, best of 3.

    python3 eval/speed/python_justext_speed.py SPEED_SAMPLE.txt PAGES_DIR
"""
import sys

import justext

from speed_sample import load_pages, print_best_of_three

pages = load_pages(sys.argv[1], sys.argv[2])
stoplist = justext.get_stoplist("English")
print_best_of_three("Python jusText 3.0.2", pages, lambda page: justext.justext(page, stoplist))
