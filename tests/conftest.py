"""Shared test settings: every test module may be run alone or under xdist."""
import warnings

warnings.filterwarnings("ignore", module="pettingzoo")
