import Foundation
import MediaDecode
import Synchronization

/// The pictures sent where a client waits for one and the library has none: a record for an album or song
/// without a cover (`getCoverArt`; Sublime Music showed a spinner for ever on the JSON error, and Navidrome
/// sends a placeholder too) and a figure for a user (`getAvatar`: mlib keeps no uploaded avatars, and
/// Navidrome sends the same placeholder without one). Grey PNGs made with FFmpeg's `geq` filter
/// (600 × 600 and 300 × 300, 8-bit grey), kept here so that nothing is read from disk.
enum Placeholder {
    /// 600 × 600: what `getCoverArt` sends without `size` (the size Navidrome's placeholder has).
    static let cover = decoded([
        "iVBORw0KGgoAAAANSUhEUgAAAlgAAAJYCAAAAACbDccAAAAACXBIWXMAAAABAAAAAQBPJcTWAAAQAElEQVR4nO3dbXrbOBIE4D2ST+Eb5Gpz3n",
        "0cTyaWRBL9UdXdoKp+bQh+AI03ACPLs//7UBRC/tfdAeWeESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFS",
        "KBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEs",
        "FSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBEshRLBUigRLIUSwVIoESyF",
        "EsFSKBEshRLBUigRLIUSwVIoESyFEsFSKBGsq/y6THfvRkewXnKtScZsEaz/EgElYGcRrA8MKfF6zLvDQpuSrn/zxrB4pqTrbWFVoHpvXG8Iqx",
        "LV++J6M1gdqN4T1zvB6lT1drbeBVY3qb/prkRR3gJWt6XndNejIveHlRHweRnZusjNYeE14Yx114abW8NKi8Ke/1a07gsrTsrJI3V9d5VouSms",
        "kAkvJ9DNumvFyS1huRmEFOHu210vRm4Iyzf5cT/IB3TXDJ+7wcLPeSKuB3VXDpx7wbJPdpKMI/YHdlcPmjvBss5xoSrnc7srCMx9YBlnFyIlEO",
        "Pju6sIy11gYaaVG1snuisJyj1gWSYU5iMVS1+6qwnJHWClZ7I2hh51VxSQ/WFlJ7Eh70Brd1jJ+WvLum/dlU1mb1jLqcNqwObetHaGtZq00ay+",
        "suxld4UT2RjWYsLgDChZdLW7xvFsCys8V9NyU1qbwgrP08TcktaWsK7nCD/z/NyP1o6wgtMzO5d97654IPvBik3NBrkXre1ghaYlNdln4TztrK",
        "277t5sBisyJbEJ9gT75LO27tr7sheswHS459VMhuPr4kbd1XdlJ1j+qfDNZ1gIltc9aG0Eyz0NjomEoIDe6Lilew7s2QbWxVwmpxD7ngS548X1",
        "3fNgzS6wzicgN3vYd2/crbeXtQcsb/FtE0cxBXvE5rS2gOUsvGXKyKggjzq9sns+LNkBlq/qhtkqUpV+4M6y5sPylXw9U6Wqso/dl9Z4WGf1jk",
        "1S9y+shq47PN49L6tMh3U2R4H5aVSV6cPZNd0zs8hsWGeVjkxON6t4P7ZctEbDOpubitlkJdKbHRetybBOahyYSN8l7MRoHR3unqGLDIZ1MiXs",
        "OayIv1snF3TP0XnmwjquLnf6CuPu3GaypsKylxY2c9XxdnCv7XAorJN54M1aS5yd3Go7nAnruKq0GeuLn9bB0e7ZOsxIWOaSQmarN77O7iNrIq",
        "zj6nNmakBcHT4+t3vGDjIQ1mE1KbM0JV5arwe75+w182AZS3k+RdZzzTc8DvwxjnNfD3bP2kumwbIWMj09yxvZA3uk/dSDo90z95RhsDIFh8yx",
        "HQ2cV3ak3XP3mFmwDmuInparO0SU4HS5aL0e7J69h4yCZSxgbk7Ors7KQN3DfObrwe75+5lJsIzlS03I8bWwV6X0zczXTpc1CJaxeNYiGy/EvX",
        "6D7noTWXNghUscnUMKKsDNrdfNljUGlrFw4dNer+Kpyj7iDrKmwEoU1z91fFTJJ2UWre6Z/DdDYJlKZqzs+pIiVZnnbS9rBqxgXQMzVqwq/lDj",
        "JWNljYBlKpetqKsLGlhFn7y3rAmwYiV1z1SbqujjbRcMlTURVrie16f3f53G3YloJbpn9GMELFQ1r8/uZ/UVb0f2ldUPK1JL3/SMYfUVZ2dMZ0",
        "+U1Q7LUCRLIS9PnsPqK35akXO657UbFqiMV+eOUvUdV6/2lNUMC1TEi1MHsvqKp2dbyuqFFSihY0bmsvoKeCDTZLXCMhQncIpjNnrjoxU4pXNu",
        "J8FCuhr3yn4URydDtemc205Yr5UBlPe/E8ez+gpY1vORxslthLWuS6C4f86Dsfo8CfL+1hPXpzwf6ZvdPljrqgRK++9p+Wk/80QQZr3JXrLaYL",
        "nLVrVcGd0AeeEWrUEv8F2wEDU7OS0+ySEoCF2wRWuOrCGwgK4spx1fmdGRxcWT1TTBTbDy9To5KzSxqNelzH2M120jqwdWvlrxsw6ugryDp293",
        "L1ktsF5rASh5aDrBqnI3tV1kkPV8pGOOJ8BCuVqf9HIJHFXu3iRZHXPcActZKI4rpqr4EyBjHbEZNsBKl+nwHN8M0lVFH2O6YAdZ9bDSRYqd83",
        "h6CavYs24iawAseplfzq79AbX3gRhZTwfKp7kc1qoC7iL7pq2cVeChlrPHy6qG5asPoMLPJzd9m8ZNK3lK+2bYC6vWVR8r99MJsoonuhjWy+gX",
        "tUtW9+nURlbeHphk+ZprZ7oWVrI0B2dYZ6qflbMXu8vqhLVczNeVNU7TDFZfsfckLat3MyyF5aqc4ScX27H6CpDW5NesSlgv42ZW9ed5g1h9xd",
        "yjvKynA4WT3QfrbV01yiqc7EJYnpKgXE1k9RVrv5J1aNwM62C9jPm6Xpl6ek/rCE6Wq7VsurtgVbjCLFefh8Hc13ba6gRPa9l0l8HylGv9gzDI",
        "lCwvNyT5BMBZQzfDKlgv46WV8u9J0Vm30IHwsl2alfV0oGjCe2CVuFqfdHydC0sSV4OsogkvgpWphLPM/54TmOiwkQQu01VrWZ6La2a8CVa0Sm",
        "ZXy3MOrsm9M0VvUCDr8c81M14Dy1WG3AenxnNerki+iCfuAxjSwM2wAdZlFfKu3FOLUhW+m+WCTF2eG0umvATW8zgvK5Qor/GUp9OBqqL3RMhy",
        "NFbMeQUsR4Uy7xLrux+dzfls3ntjk6xwc8f7ewcsRwVctV3f4PlcEqvA3dOyXH9fCya9AJajPIWuqKoCjwDIcjTyZ70aVmIjXJZ+Fiv3Y7Ljm/",
        "X+zocVH72rrB5XRay8j0qOcNZmWAwrvmDhXBWycj4uLct+JX3a6bA8Yw+X1HLC3/MqWfkeSZX1+Gf2vNfCuqpLvGbrqx/OK2bleqpBVvDq6iWL",
        "DctelgpXPaw8T87KsreRJ74UFm0jtM1aHyvH03NDdVSYPPFkWOZhu37Y5W3/76xGVzWyrjfDxz9zZ74SFmsjNE1YNyt7H9aygo2lSxYXlnnQFa",
        "7WJ/HTKqt0ySqERdoILXM1Ybn6jqknmRE7NkPq1FNhXQ7L2ARytTynLHxZ5ibm3NfBii9Y520lrj4Pkrxf9pwNliwmLHMxqK7iDo5EIXxZrkzJ",
        "MjcRJ78MFmsjvGo13OD8qks9SV0mWeEbjFiyiLCiozW3kVw5xIRxAWSF2uqWrCpYu7gKQAnZGiKLN/s8WNaxXr9sZn7Q4369ir84xTguzwi2Xr",
        "SVLVlFsBgLVnJmDs5O/XPPfX1aVqitaslqh+X417H9QtsJj+emVIXuwpNlX7Jo00+DZa9BpDzXFxqufj716uR/XhK+lbOLic3Q2sSa/25YiQXr",
        "onFx45czT859FWXw5aGVlRW58eawgsM0XrWeEvPknjhYmbrS5aCVGkbsL+XzVSQARbCwtcG5OiRgR3WKy0wrKSty3dawgoM0Ni03QuO0Hk2/X9",
        "WxLSuttaxYY/eSVQPLOkZbE8jVwdRHVR3aMtLKyIrV7y1gXdTstGk1F0FXOVUHtjCy4puhsYUjgAPLPELGgmWaTgqrIK2lrNClzUtWM6yLip02",
        "gVw9/BnF6oiWvzcvzaG2u8M6r1pwwYr/DO3HOQ8nIVk90zItWqQfCxoLTyFAgfU0ivORX9TrtCn+cfTJOWhWB7S8XXppDbW1LlkzYWU2wqvW7z",
        "MezmGweqJlWbQYm+HtYKXHHf483ubqx59YrF5prftl7rT5wk5ZI2ERN8I6V05ZjM3wzrCu3iADpYK64rJ6pEWUFWniv74TYBlHHdwj45+b1i5X",
        "z7K8vXM0jlyy2mDV/wCxerl6pkX8joxpxFfX4BWQYUV2wviCdd72cnGVK5gs8JJF3wvxsLJDjn+8dT1tP9vrWD3Q4n1HJt0CZ9AFK/Sh+56u+L",
        "IiJdsbVumCdd72q9eVS1aoLV9nOAM4LNuwgj9APGsZ7oouK1JO8pLVBuu8Rmct8c/jfzZ3sPpJK/HtK/Tr+8Mf0Q6osLA7YXzBGuDKISvSNm8v",
        "7IFV+nn8DFcIWYDP2E8vQTtAw7KO1l2g+EY4xJVVFvkz9tMGMAQmrMC6RFiwxriyy4I2NX1GyoXlrg9lwfrzv7pd/ZR12eGWJQsMAQwrMqJsy2",
        "qa/vyvblVfcXbZ0TRtL5wF6+6uWmTdDlbRgmX8tkm3qD/x9RpUIVMDVsIoWOhPISa9uP/JeqzB4ab/qYSVgIUVGY+lIb5g/flf3Z7+Zj0k9JLV",
        "shfyYJ0WJ/RXK/l5fLemn/H13F4Kf/WYHzgwYfkLcNIQXLDmvWB9x9V1RJU69sL9YZ21/GjrlvQcT98RLdvDgg7T0mD8MLEb0nPW4wotWaNesm",
        "iw2hesqRvhV166SK5Gw5K1A6zQtwLnboRfWQ05NmjBAjXYPu/pRnQU1wDyhdoclmksSD6m/4ZPt6HjeEYAqZTpOBADC9bFZyeootj+vncLOotj",
        "CIBS1X+SxYNFL4rtX4vdgM7y0lHEuAfthWNgkb4V2O3nPI5BOBpy+wQQQzWs4k8huvVcBTG+dMMOsAIDSTbcHhb/fYL29k6CVfGKtbmrzJK1wU",
        "vWFFjvtxPW7oV3h1X7KUS3nFXsI0k3GAuP01AOC1UpwcI0zIcVGIbpgvhLfbebdfJjdFxhOg7jwIFV8Ip1gwWreC80XQDjcD9YGy1YqSXL2XBv",
        "WBXv7hstWOsla9+392pY7nI4L/jb0m3GFutoeBUTLGdDNxlb8uPEXgDjAIOVGjVhK+gWYw2tAMHjKA8UWNV/zY5ausFYYx0Pr2ScJWs2rNvvhI",
        "V74Z1hFb5idXuxJztS8AUoD4LVnexIwRegPIyARSheNxd7eDUIHUd5uCmsbi2esGoQO47yMBrWO+yEdXvhnrAee9oFa8OdcLkXFsBiyOLAqi3F",
        "6wXdVnxJDjZ7nLNkVcKq+0gGP/l/R4q/d3V1ro+DQEyABfs7yYL1PFjw7Y2Dsh+f8JI1A9bx8fiNkNN+PF7kE8aU7XdAICbDClcOOetnA0Y+g1",
        "SG2HEQCMG6zNWQcU8hlSF2HARiR1h1r1jXY4Y9xjismuMgEIJ1kdWgUc8xDqvmOAjEnWCh393XowY9aErdfgcE4o6wQNNtGTboUTPq9h0QCBAs",
        "S/83g2UbOOZZtfVZNGBEFMIqAweZa+vIIQ/j1CF4AUbEAFhwcJC5to4c8rAhhfsORsRgWK0fY9mHjngaqRCx4xgRG8Kq+LTBM3bA44wDqzmOEX",
        "EjWMhPGzxjBzxuSuV+ByPihrAAE10N64afNwjWUXyDBzxwRuW+gxEhWEfxDR7wwBmV+w5GhGAdxTd4wANnVO47GBGCdRDv6AXrNYIlWIJlOy5Y",
        "gkU5LliCRTkuWIJFOS5YgkU5LliCRTkuWIJFOS5YgkU5cAiq7wAADpRJREFULliCRTmen2b9SCcfwTqKb/CAB86o3HcwIgTrKL7BAx44o3LfwY",
        "gQrMN4xo543ozKfQcj4oaw9NVkwYIe79oLAY8zDqzmOEbEhrCG7YWIp5EKETuOETEYVutLln5hNZkBsEa+ve8MK1lojAj9R0HOYhs45lm19Vk0",
        "YEToP2N0GsuwQY+aUbfvgEDcEZb+w2uZ4yAQd4KFXrL0n4pMRLCucj1m2GOMw6o5DgKxI6yql6x/9J/jjkewFjkbMPIZpDLEjoNATIbV/vb+O8",
        "fjRT5hTNl+BwRiBqyxL1nfeR4s+PbGQdmPC1bwgmpY/+j/Vs4d/R9h9ic52OzxnWB1v71vJYtWBPPxybBm/LNwyyUrO1bscZSH0bAmvWTxwqpB",
        "7DjKw01hbSSLV4PQcZSHEbDeei/MjhR8AcqDYHUnO1LwBSgPpbAK3963kZUfafL4W8LyX7DdkmUdD69kG8GqXJnOGrrBWEMrQPA4ygMM1rSXrE",
        "1k5ceJvQDG4XawNluyrKPhVewmsOr2wi1kEYf/cvzOsGpesjZasp66TKxL8bv7DWHttGTZx5JuuAcs5BvAnZes/BgdV5iOwzjgYHHe3m+9ZNlH",
        "wmsgLVj1sLQX/o19JOmG6nf3aliMzxUuWrrlXAcxQmtD9SvWGFjvuGTZx1HWgNNAglX6ucLFNd12rrIaX8enEDgNQFjVb++7L1mI8aUbWAtWOS",
        "zs5wonDVvIcgzC0TDlFWsOLPSSNV3WS0cR457zikWE1boXzl+yHEMAlMq4TwAxsGCVfK5w+dd9tizPCCCVMh0HYkDCmrQX/mjqNnQU1wDyharf",
        "CTeBFViyZm+GqyHHBi1YvobokjVX1ksXydW4E6yqvXDHzXA9rtC/FtMNSAtQWLOWrLmboafviJaGBesGsPbbDF1dR1TpbrCQn7HnlqxRsnw9t5",
        "ci8nn8jrAGLFkjZa2H1PV5PJQCFlZ6L/STs05Qt6c/WY81ONz0pxBYCaNgMZasaa9Zvl6DKmRqwEogwqr/jP2ysVvUd5yddjTN2gmHwbq9LGeX",
        "HU15cVgJYFgde+H1tjJKlmEwbZ/HgyFwYQH3wsSSNUbWujCEGljf9sEQmLDGLFlDZLm766jBtJ0QDsu6FxYuWVNkrQfPqIC11GgHPbDQS9YOsg",
        "46gxtlvgXtgAqr7nOF5Wy1y/L31Dd+dwt3J+yD5W9JLFkPd+1ktXIVXrDSLx1oB3BYxL1wX1mH3QCOcN5OSIYV2wuDS9ZcWaFOOkYP+FYgnEEX",
        "LMaSNVVWqIuesQOqDGeAh5X9jDT8jr6YtceLG1gtXYX/3oQWLO5OyIYVeX1PfMZ+0fj8yM1cRResrp2wDxZlyfLIKqEV752jceJOyICV3gsTS9",
        "Zi7qoXrXDXPOMGfB5PQMCGVfsZu3f6qlgxXc1csGbCin/Gvpy/QlnmTq97zv48noCAAatxybLJqqB1/kTwqGYuWENhMTfDl3PIrCJdemkNtd0P",
        "lvn1PfJZ8nISTNNIpXX1LPCQgv8dJParewWs4iXLJOvlJBarWG9emkNtrQtWN6zQkgWSxaF1/ZRIh4Mfb9k/gaYQ4MCiL1l5WRxa10/Aj2bsgt",
        "UOi7FkRWVlba3vH+nsngtWESz0koWRdTj1IFVWVilX0QVrY1iAJSuzGVplHU9/XpWZVW4g0X8tPvyRBKAIVmzJKpD1m8DBqQlUZ7eMdJPyg+mt",
        "YbGXrOVH7Oa5vXDgN3V5u0An4xth84LVDiu8ZAFlrSwYRVlu5exi4nNTaxNr/mmwCpYsnKxvD/bTMXdJjmD0gtUPK/4ZO1RW3pb7ep6rAQtWFa",
        "zwkpWV5ZISt+W/cn1+fPCOfyzRpp8Hi79kLV+zvIvWrz9CAhz9z1mfEm0dsGCVwdpG1n9QLBc6TnV3q8LVnrBAS1a9rF8/xJxcvmrPd2o17uEL",
        "Vh0s1pJlkRV8Jf9cJn5fwznXzaG2ugWLCsuxZDFlBRetn5eDRNm7k3I1YcEqhEXbDOmysIG4Gr9gcWGhliyErCG0TD3JuRqxYFXCii5Zqzd067",
        "/f1ifxA+lr/PP4xz9Tp54Ly7xklchqp2X+DGPRHmysXLBKYbE2Q+Ny1E3L+PzUYB0b4d6wYEvW/rIqXM1ZsGph0TZD6ytUHy3rk5enoVztDsv8",
        "VdLEX8X11Q/nNdAyPzXryl5e9rzXwuJthi5ZxbTsj0yOctCCxYdlX7KKZFXTcjyO6qp2waqGlfiMHSerkpbnUWlXgxasAlioJQspq4qW6zHZ8Y",
        "1asMphZf7xt56jWbSwrFLVKV+wKmDBNkOsrF/57ykA7w5wNWkj7IEV3gzBsojLlvfGaVe+v68Fk14BC7kZgmVRli3/PfPjGrYRFsFyvb8DZPmg",
        "YG0F7ma5IFOX+jf3jxZYqc+rLJPmZ4KyFboPYEi+z7dKprwGFm4zJMn6YyKBK3oDxIDmueqCxZcVIPL5GcQRvtDY06SrO8MCboa29Si6+Hw6kX",
        "jPf708f9LAjbALVo2s6L72+ZD4OaA+Yl3dDZZzMwTICi9afy83JPkEwFnOUlbNdxksz2a4/CDUPCWwf+khQbl6tzzLV8my6e6CVSIru2gxgxqB",
        "s45l010HC7oZOuZlJC1rv5J1aNsIS2E5N0OMrJG0zH3KVqHPVSOs95XV5uqusFybIU7WMFr23uRd9S1YtbC8sq7LuiUtICv3ml861Z2w1j+8WV",
        "fW6mUGLUcv0q5aN8JqWI2yBtDy9GB3V9WwwK9Zvk+qemm5np4fee9G2A2rWFYjLd+TCa7uDsu9GVoq7KRVbsv5UMvZ658gPh2onudyWHhZzh/c",
        "lNPyPhAx5HZXE2BVy/qF+jEy51kYV28IiyTLB6WIlv8xpgs2cNUBiyHL/z0G/rIVeQJkrBNctcByvmaRZHFtxe6NGekEVyNgwWT5kXwycEVvar",
        "vI7+p9YHk3Q+NyFBMCthW/HWiQIzbCLlg8WSEgnyBcmfsYr9vFVRcskqzgovXvlRldycth45viagospKz4wvP5GfARuujgHsbz3Cc0TXAXLJqs",
        "9M8DPx+TPM36ROuJ7hO65rcNlvufhjWL1s+b2AJ5lPG89SnPR9qmtw8WTxb0Sww0Tz/ubz1xfcrzkb7ZbYRFlNX81St77P3czFUrLPc/DZ2yxt",
        "NydDJUm865nQQLKmuDRcvRw1hlOue2FVZQ1j1ogQcyzFUzrIgsz4egc2l5ehYsSu/MNsNiyxpKy9WrLV21w6LLmvca7+zQnq76YUVl7UrLz2pL",
        "VwNghWQ5f9o8hpa3I9FadM/pCFgVsmbQcndiX1cjYZG+Mdpsy/942wVHJ3XP6McMWEFZ/i9fYX/Kx35yvAjd8/mVEbASsrxMWmhFHmq8ZKqrIb",
        "CisiLfGK1etmLPS4y/ey6/MwRWRpYfSZ2t4JOsF811NQbWqyzu19w/+bjij8iMvHse/2QMrJSsEBCqrcTNM8vVGFeDYMVlBRetX3+/Hhq7mnPX",
        "1KC75/BvBsHKyQrj+ETqSt/MfO1wV6NgJWQlv8XwCdCFuof5zNeD3fP3M6Ng9cn6c4eIjeh1x3cyn/l6sHv2HjIL1rGsyl+g+HwK4kzHozNnds",
        "/dY4bBOpDV8TX3ZzTXgT3SfurB0e6Ze8o0WKntkPCFUTKnn49xnPt6sHvWXjIPVl5W+9djvHF1eg9XE2GlXrQ2pOVltYWrkbByL1qb0fJ1dovX",
        "q98ZCSsrax9azo7u42oorBNZd6PlZ7WNq6mwjmTt+gsUZ/F28OTs7pk6yVRY+e1wOC1353Zarj4mw8pvh5Hpq4m/W1ttg18ZDAuwHYbmkJ5Al/",
        "baBr8yGdaZrG1+N+cokd6cXdE9P1cZDetQ1g6/QIHtx9kl3bNzmdmwUIvWDFphVtstVx/zYcEWrW5b0advuVx9bADrVNbQ383BPvb0su5ZWWY+",
        "LCyteluJB+7Lag9YWFmltlKP2tnVHrCOZSF+Nyd6ecEjzq/tng1T9oDFoIX9vS/0rTdntQ+sC1kZGJ9wXZA7XlzfPQ/WbAOLsmj9nUWELuiNjl",
        "u658CejWCdyCL82lfpxYd3O2nqngFHdoLFpfXnRmYlrpNdXThp6q6+K3vBOpMF/rWvFzKLYJ981tZde182g1VF6+dd+Zx+Pu2srbvu3mwH61QW",
        "iVZdLvvfXXV39oN1U1r3YrUnrHNZ29K67nd3vSPZEtaK1ma2Fl3urnUsm8K6Ea1bstoY1k1o3ZTV1rAuZI34JvI6y152VziRnWFd0pq/bC072F",
        "3dVPaGZaA11Na6b92VTWZ3WNe0htoy9Kq7qunsD2s7Wu/A6h6wFrRG2bL0pbuakNwD1opW1+99RTrRXUlQ7gJrSavblvHx3VWE5T6w1rT++xIM",
        "RIoj5ud2VxCYO8Ey0Br9C6vd1YPmXrBMtJi/95V4UHflwLkbrA+bLT4u3wO6a4bPDWEZaTF+qTB43+56MXJLWGZaDwoAvEI3664VJzeF9eGx9f",
        "w7E15Omeu7q0TLfWF9+Gy98FgT8Z7/Pqo+bg7LTevEyzqR53TXhpubw/qI2bIZy9y5uyr03B/WR84WI931qMhbwPqYZKu7EkV5F1hf6Sb1Nqi+",
        "8k6wPnptdY+9Nm8G6ytCVZE3hPUVoWLnTWF9RaiYeWNYvyNTpLw7rN+RKXwE67+IFDKC9RKBQkSwriJN4QiWQolgKZQIlkKJYCmUCJZCiWAplA",
        "iWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAp",
        "lAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiW",
        "AplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmUCJZCiWAplAiWQolgKZQIlkKJYCmU/B9OOU2cVi6fKgAAAABJRU5ErkJggg==",
    ])

    /// 300 × 300.
    static let avatar = decoded([
        "iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAAAAABcFtGpAAAACXBIWXMAAAABAAAAAQBPJcTWAAAEU0lEQVR4nO3dCWocQRQEUR1xzulTmgEbb1",
        "o6pv/PLEPECTofSKBRT9Xbwy731n6A/ymxQGKBxAKJBRILJBZILJBYILFAYoHEAokFEgskFkgskFggsUBigcQCiQUSCyQWSCyQWCCxQGKBxAKJ",
        "BRILJBZILJBYILFAYoHEAokFEgskFkgskFggsUBigcQCiQUSCyQWSCyQWCCxQGKBxAKJBRILdBLWt3drP9VvnYL1PtRhYEdgfS51jlcf64rUIV",
        "5lrOtSJ3hVsShVm6uI9QpVl6uH9apVUauF9TpVkauDdY+qxlXBum/V0WpgTVhVtPJYM1QVrjjWnFVeK401aRXXCmPNWqW1sljTVmGtKNa8VVYr",
        "ibVhFdUKYu1YJbVyWFtWQS2xQDGsPaucVgpr0yqmFcLatUppiQXKYG1bhbQiWPtWGS2xQAmshFVESyxQACtjldASC7SPlbIKaIkFWsfKWe1riQ",
        "USC7SNlbRa1xILJBZoGStrta0lFkgs0C5W2mpZSyyQWCCxQGKBxAKtYuWtdrXEAokFEgskFkgskFggsUBigcQCiQUSCyQWSCyQWCA/zwKJBRIL",
        "JBZILJBYIN91AIkFEgvkm38gsUBigXwPHiQWSCyQ3woDiQXym6wgsUB++x4kFsgTQ0BigTzlCOT5WSCxQJ75B/I0SZDnlILEAnm2MshTu0GeBw",
        "/ypgGQd1iAvB0F5L07IG90AnlXGMhb6EDebwjy5kyQd7KCvO0X5D3SIG8oB5WxHsSr/aQHYD2uebWf8dkRWI+vvNpP96NTsJ4dDfXsJKzjOwXL",
        "H8MrXfnlfopZE4s4HSHmH9IgP88C+bEyyH+Fgfz3Pcj3s0C+Jgny1W6Q390B+eVMkOc6gDyZDbSI1aDa5VrDalFtcm1hNa3WtHawulRrXCtYba",
        "lnG7sWsNpMP5tfNo/VNvrV+LRprDbQnw2PG8Zq6/zd7LpZrLbNv43Om8Rqw7zf4MBBrLbKR80tnMNqm3zc2MQxrLbIZ01tnMJqe3ze0MghrLbG",
        "V82sHMFqU1xpYucEVtvhWgNDB7DaClc7AattcL0+VluA1MZq72d1sdrraU2s9naeWKAeVnv5K7Ww2rtfq4PVXv1qDaz25tfLY7UX30ksUBqrvf",
        "deWaz22rslsdpb7ycWKIfVXjpRCqu9c6YMVnvlVGKBEljtjXPtY7UXTiYWaBurvW82sUC7WO1104kF2sRqb5tvD6u9bCOxQFtY7V07iQXawWqv",
        "2kos0AZWe9NeYoHmsdqLNhMLJBZoGqu9ZzexQLNY7TXbiQUSCzSJ1d6yn1ggsUBzWO0licQCiQWawmrvyCQWSCzQDFZ7RSqxQGKBxAJNYLU35B",
        "ILJBZILNB9rPaCZGKBxAKJBRILJBboLlb7+bOJBRILJBZILJBYILFAYoHuYbWfPp1YILFAYoHEAokFEgskFkgskFggsUBigcQCiQUSCyQWSCyQ",
        "WCCxQGKBPtf4DlAMl0MJWfbvAAAAAElFTkSuQmCC",
    ])

    private static func decoded(_ parts: [String]) -> [UInt8] {
        // Known-good constants: a failure here is a broken source file, caught by CoverPlaceholderTests.
        Array(Data(base64Encoded: parts.joined()) ?? Data())
    }

    /// Scaled covers by size, made once each (clients ask for a few sizes, over and over while scrolling):
    /// at most `memoLimit` sizes are kept.
    private static let scaled = Mutex<[Int: [UInt8]]>([:])
    static let memoLimit = 16

    /// The cover placeholder with its longest side `size` pixels (0, or a size at least 600: as it is;
    /// never enlarged, as real covers are not).
    static func cover(size: Int) -> [UInt8] {
        guard size > 0, size < 600 else { return cover }
        if let known = scaled.withLock({ $0[size] }) { return known }
        let bytes = (try? ImageScaler.scaled(cover, longestSide: size))?.map(\.bytes) ?? cover
        scaled.withLock { memo in
            if memo.count >= memoLimit { memo.removeAll() }
            memo[size] = bytes
        }
        return bytes
    }
}
