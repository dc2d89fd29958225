"""The theme's own words in the page's language (the search box has its own, in search.html)."""

from __future__ import annotations

WORDS = {
    "en": {
        "skip": "Skip to content", "toc": "On this page", "menu": "Menu", "site_nav": "Site",
        "all_pages": "All {n:,} pages", "all_sections": "All {n:,} sections", "sections": "Sections",
        "pages": "Pages", "page_of": "Page {i} of {n}", "previous": "Previous", "next": "Next",
        "not_found": "Page not found",
        "not_found_text": "There is no page at this address. It may have moved: try the search box above, or go to the",
        "front_page": "front page", "breadcrumbs": "Breadcrumbs",
        "editor_only": "Editor-only draft: this page is left out of the public build.",
    },
    "ru": {
        "skip": "Перейти к содержанию", "toc": "На этой странице", "menu": "Меню", "site_nav": "Навигация по сайту",
        "all_pages": "Все страницы ({n:,})", "all_sections": "Все разделы ({n:,})", "sections": "Разделы",
        "pages": "Страницы", "page_of": "Страница {i} из {n}", "previous": "Назад", "next": "Дальше",
        "not_found": "Страница не найдена",
        "not_found_text": "По этому адресу страницы нет. Возможно, она переехала: воспользуйтесь поиском выше или перейдите на",
        "front_page": "главную страницу", "breadcrumbs": "Путь",
        "editor_only": "Черновик для редакторов: в публичную сборку эта страница не входит.",
    },
    "zh": {
        "skip": "跳到正文", "toc": "本页内容", "menu": "菜单", "site_nav": "站点导航",
        "all_pages": "全部 {n:,} 页", "all_sections": "全部 {n:,} 个栏目", "sections": "栏目",
        "pages": "页面", "page_of": "第 {i} 页，共 {n} 页", "previous": "上一页", "next": "下一页",
        "not_found": "页面不存在",
        "not_found_text": "此地址没有页面，它可能已被移动：请使用上方的搜索框，或前往",
        "front_page": "首页", "breadcrumbs": "路径",
        "editor_only": "仅编辑可见的草稿：此页面不会出现在公开构建中。",
    },
}


def words_for(lang: str) -> dict[str, str]:
    """The words of ``lang`` (``zh-hans`` -> ``zh``), English for a language the theme does not speak."""
    return WORDS.get((lang or "en").split("-")[0], WORDS["en"])
