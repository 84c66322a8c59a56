"""Installs the ripper package and its commands `ripper` and `ripcc`."""
from setuptools import setup

setup(
    name="ripper",
    version="0.1.0",
    description="C stack-ripping source transformer and its runtime",
    packages=["ripper"],
    python_requires=">=3.8",
    install_requires=["libclang>=16"],
    entry_points={"console_scripts": [
        "ripper = ripper.cli:main_ripper",
        "ripcc = ripper.cli:main_ripcc",
    ]},
)
