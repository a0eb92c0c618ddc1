#!/usr/bin/env python3
"""vertices.npy: the polygon of Kernel Tuner's examples/cuda/pnpoly.py (600
vertices on the unit circle, at sorted random angles, largest first), made
once with a fixed seed so every tune and check reads the same polygon.
Run: python3 make_vertices.py   (numpy; writes vertices.npy here)."""
import numpy

numpy.random.seed(600)
vertices = 600
vertex_seeds = numpy.sort(numpy.random.rand(vertices) * 2.0 * numpy.pi)[::-1]
xy = numpy.array(list(zip(numpy.cos(vertex_seeds), numpy.sin(vertex_seeds))))
numpy.save("vertices.npy", numpy.ascontiguousarray(xy.astype(numpy.float32).ravel()))
