if __name__ in ("agents", "experiments"):  # imported from the checkout under its folder's name
    raise ImportError(f"import virus_envs.{__name__}, not {__name__}: the folder {__name__}/ installs as "
                      f"virus_envs.{__name__} (see setup.py); two names would load two copies of every module")
