"""Native OpenCV ArUco detection for bench/recall.ts, as a long-lived process fed frames.

Run with Debian's python3-opencv (OpenCV 4.6): /usr/bin/python3 bench/native-aruco.py BYTES N SIZE MAXCORR
BYTES is a file holding the dictionary's bytesList (OpenCV.js's own table for Vedette's default
dictionary, which 4.6 does not ship), N markers, SIZE bits per side, MAXCORR correction bits.
Then, per frame on stdin: width and height (two little-endian uint32) and width × height grey
bytes; per frame on stdout one JSON line: detection time (ms, cv2.aruco.detectMarkers with the
default DetectorParameters, OpenCV's default thread count) and the markers found.
"""
import json
import sys
import time

import cv2
import numpy as np

bytes_path, count, size, maxcorr = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250)
dictionary.bytesList = np.fromfile(bytes_path, dtype=np.uint8).reshape(count, -1, 4)
dictionary.markerSize = size
dictionary.maxCorrectionBits = maxcorr
parameters = cv2.aruco.DetectorParameters_create()
print(json.dumps({"ready": True, "version": cv2.__version__, "threads": cv2.getNumThreads()}), flush=True)

stdin = sys.stdin.buffer
while True:
    header = stdin.read(8)
    if len(header) < 8:
        break
    width, height = np.frombuffer(header, dtype="<u4")
    grey = np.frombuffer(stdin.read(int(width) * int(height)), dtype=np.uint8).reshape(int(height), int(width))
    start = time.perf_counter()
    corners, ids, _rejected = cv2.aruco.detectMarkers(grey, dictionary, parameters=parameters)
    ms = (time.perf_counter() - start) * 1000
    found = [] if ids is None else [
        {"id": int(i), "corners": [[float(u), float(v)] for u, v in c.reshape(4, 2)]} for i, c in zip(ids.flatten(), corners)
    ]
    print(json.dumps({"ms": ms, "markers": found}), flush=True)
